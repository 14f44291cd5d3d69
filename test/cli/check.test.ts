// `layout check`: spawns the built CLI (dist/cli.js, made by `node scripts/build.mjs`, which
// `npm test` runs first) and checks exit codes 0/1/2 and the exact output.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
let dir = '';

function layout(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  dir = mkdtempSync(join(tmpdir(), 'layout-check-'));
  writeFileSync(join(dir, 'good.layout'), 'param M = 4\nlayout L = OrderBy(Row(M, M)).GroupBy([M, M])\n');
  // (declarations all used, and layouts in a file without kernels: no hints from later checks)
  writeFileSync(join(dir, 'bad.layout'), 'param N = 4\nlayout L = OrderBy(Row(N, N + 1)\nlayout K = OrdrBy(Row(N, N))\n');
  writeFileSync(join(dir, 'crlf.layout'), 'param M = 4\r\nlayout L = OrderBy(Rw(M, M))\r\n');
});

test('a clean file: no output, exit 0', () => {
  assert.deepEqual(layout('check', 'good.layout'), { code: 0, out: '', err: '' });
});

test('errors: one line each, file:line:col: severity: message [code], exit 1', () => {
  assert.deepEqual(layout('check', 'good.layout', 'bad.layout', 'crlf.layout'), {
    code: 1,
    out: [
      "bad.layout:2:33: error: expected ')' to close the argument list opened at 2:19 [parse/unclosed]",
      "bad.layout:3:12: error: unknown name 'OrdrBy' (did you mean 'OrderBy'?) [name/undefined]",
      "crlf.layout:2:20: error: unknown name 'Rw' (did you mean 'Row'?) [name/undefined]",
      '',
    ].join('\n'),
    err: '',
  });
});

test('--json: one array of {file, line, column, endLine, endColumn, severity, code, message}', () => {
  const r = layout('check', '--json', 'bad.layout', 'good.layout');
  assert.equal(r.code, 1);
  assert.equal(r.err, '');
  assert.deepEqual(JSON.parse(r.out), [
    { file: 'bad.layout', line: 2, column: 33, endLine: 2, endColumn: 33, severity: 'error', code: 'parse/unclosed', message: "expected ')' to close the argument list opened at 2:19" },
    { file: 'bad.layout', line: 3, column: 12, endLine: 3, endColumn: 18, severity: 'error', code: 'name/undefined', message: "unknown name 'OrdrBy' (did you mean 'OrderBy'?)" },
  ]);
  const clean = layout('check', 'good.layout', '--json');
  assert.deepEqual(clean, { code: 0, out: '[]\n', err: '' });
});

test('every example checks with no error', () => {
  const files = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).map((f) => join(root, 'examples', f));
  assert.equal(files.length, 7);
  const r = layout('check', '--json', ...files);
  assert.equal(r.err, '');
  assert.deepEqual(JSON.parse(r.out).filter((d: { severity: string }) => d.severity === 'error'), []);
  assert.equal(r.code, 0);
});

test('bad usage: one line on stderr, exit 2', () => {
  const cases: [string[], string][] = [
    [['check', '--frob', 'good.layout'], "layout: unknown option '--frob'"],
    [['check', '--jsn', 'good.layout'], "layout: unknown option '--jsn' (Did you mean --json?)"],
    [['check'], "layout: missing required argument 'files'"],
    [['chek', 'good.layout'], "layout: unknown command 'chek' (Did you mean check?)"],
    [[], "layout: missing command (try 'layout --help')"],
    [['check', 'missing.layout'], "layout: cannot read 'missing.layout': no such file"],
    [['check', '.'], "layout: cannot read '.': it is a directory"],
  ];
  for (const [args, line] of cases) {
    const r = layout(...args);
    assert.deepEqual({ code: r.code, err: r.err }, { code: 2, err: line + '\n' }, args.join(' '));
    assert.equal(r.out, '', args.join(' '));
  }
});

test('warnings, infos and hints alone exit 0', () => {
  // a file whose only finding is not an error (an unused param is a hint)
  writeFileSync(join(dir, 'hint.layout'), 'param Q = 1\nkernel k target cuda builtin nw_antidiag { expr = 1 block_size = 16 }\n');
  const r = layout('check', '--json', 'hint.layout');
  const found = JSON.parse(r.out) as { severity: string }[];
  assert.ok(found.length > 0 && found.every((d) => d.severity !== 'error'), r.out);
  assert.equal(r.code, 0);
});

test('an unreadable file among readable ones: the others are still checked, exit 2', () => {
  const r = layout('check', 'bad.layout', 'missing.layout');
  assert.equal(r.code, 2);
  assert.equal(r.err, "layout: cannot read 'missing.layout': no such file\n");
  assert.equal(r.out.split('\n').filter(Boolean).length, 2);
});

test('--help and --version exit 0 on stdout', () => {
  const h = layout('--help');
  assert.equal(h.code, 0);
  assert.match(h.out, /^Usage: layout \[options\] \[command\]/);
  assert.match(h.out, /check \[options\] <files\.\.\.>/);
  const v = layout('--version');
  assert.deepEqual(v, { code: 0, out: '0.1.0\n', err: '' });
  const ch = layout('check', '--help');
  assert.equal(ch.code, 0);
  assert.match(ch.out, /--json/);
});

test('schedule checks run in `check`; `--gpu-target` picks the GPU of a schedule without `on`', () => {
  const sched = [
    'param M = 128',
    'schedule s for linalg.matmul(M, M, M) {',
    '  mm = findOp("linalg.matmul")',
    '  tileForGrids(mm, [64, 64])',
    '  parallelizeForThreads(mm, [32, 64])',
    '  bufferize()',
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'sched.layout'), sched);
  assert.deepEqual(layout('check', '--gpu-target', 'sm_80', 'sched.layout'), {
    code: 1,
    out: 'sched.layout:5:29: error: 32 x 64 = 2048 threads per block exceeds 1024 on sm_80 [schedule/threads-per-block]\n',
    err: '',
  });
  const cpu = layout('check', 'sched.layout');
  assert.equal(cpu.code, 1);
  assert.match(cpu.out, /^sched\.layout:4:3: error: tileForGrids maps work to GPU blocks, but this schedule targets the CPU/);
});

test('kernel checks run in `check`: unused binding of a built-in template', () => {
  writeFileSync(join(dir, 'kern.layout'), [
    'param n_rows = 64, n_cols = 64',
    'layout X = OrderBy(Row(n_rows, n_cols)).TileBy([n_rows, n_cols])',
    'kernel sm target triton builtin softmax {',
    '  input_offset = X[row_idx, 0:n_cols]',
    '  output_offset = X[row_idx, 0:n_cols]',
    '  extra = 3',
    '}',
    '',
  ].join('\n'));
  assert.deepEqual(layout('check', 'kern.layout'), {
    code: 0,
    out: 'kern.layout:6:3: warning: builtin softmax never uses `{{ extra }}`: the binding of `extra` has no effect [kernel/unused-binding]\n',
    err: '',
  });
});
