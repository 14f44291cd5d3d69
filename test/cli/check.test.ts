// `layout check`: spawns the built CLI (dist/cli.js, made by `node scripts/build.mjs`, which
// `npm test` runs first) and checks exit codes 0/1/2 and the exact output.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
let dir = '';

function layout(...args: string[]) {
  return layoutIn(undefined, ...args);
}

/** `layout ARGS` with `input` on standard input */
function layoutIn(input: string | undefined, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  dir = mkdtempSync(join(tmpdir(), 'layout-check-'));
  writeFileSync(join(dir, 'good.layout'), 'param M = 4\nlayout L = OrderBy(Row(M, M)).GroupBy([M, M])\n');
  // (declarations all used, and layouts in a file without kernels: no hints from later checks)
  writeFileSync(join(dir, 'bad.layout'), 'param N = 4\nlayout L = OrderBy(Row(N, N + 1)\nlayout K = OrdrBy(Row(N, N))\n');
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'crlf.layout'), 'param M = 4\r\nlayout L = OrderBy(Rw(M, M))\r\n');
});

const summary = (files: number, errors: number, warnings = 0, infos = 0, hints = 0) =>
  `checked ${files} file${files === 1 ? '' : 's'}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ` +
  `${infos} info${infos === 1 ? '' : 's'}, ${hints} hint${hints === 1 ? '' : 's'}\n`;

test('a clean file: no diagnostics, the summary line on stderr, exit 0', () => {
  assert.deepEqual(layout('check', 'good.layout'), { code: 0, out: '', err: 'checked 1 file: 0 errors, 0 warnings, 0 infos, 0 hints\n' });
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
    err: summary(3, 3),
  });
});

test('--json: one versioned object {version: 1, files, diagnostics, summary}', () => {
  const r = layout('check', '--json', 'bad.layout', 'good.layout');
  assert.equal(r.code, 1);
  assert.equal(r.err, '');
  const report = JSON.parse(r.out);
  assert.deepEqual(Object.keys(report), ['version', 'files', 'diagnostics', 'summary']);
  assert.equal(report.version, 1);
  assert.deepEqual(report.files, ['bad.layout', 'good.layout']);
  assert.deepEqual(report.summary, { files: 2, errors: 2, warnings: 0, infos: 0, hints: 0, unreadable: 0 });
  assert.deepEqual(report.diagnostics, [
    { file: 'bad.layout', line: 2, column: 33, endLine: 2, endColumn: 33, severity: 'error', code: 'parse/unclosed', message: "expected ')' to close the argument list opened at 2:19" },
    { file: 'bad.layout', line: 3, column: 12, endLine: 3, endColumn: 18, severity: 'error', code: 'name/undefined', message: "unknown name 'OrdrBy' (did you mean 'OrderBy'?)" },
  ]);
  const clean = layout('check', 'good.layout', '--format', 'json');
  assert.equal(clean.code, 0);
  assert.deepEqual(JSON.parse(clean.out), { version: 1, files: ['good.layout'], diagnostics: [], summary: { files: 1, errors: 0, warnings: 0, infos: 0, hints: 0, unreadable: 0 } });
  assert.equal(layout('check', 'good.layout', '--json', '--format', 'json').code, 0);
});

test('every example checks with no error', () => {
  const files = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.layout')).map((f) => join(root, 'examples', f));
  assert.ok(files.length >= 8, files.join(' '));
  const r = layout('check', '--json', ...files);
  assert.equal(r.err, '');
  assert.deepEqual(JSON.parse(r.out).diagnostics.filter((d: { severity: string }) => d.severity === 'error'), []);
  assert.equal(r.code, 0);
});

test('bad usage: one line on stderr, exit 2', () => {
  const cases: [string[], string][] = [
    [['check', '--frob', 'good.layout'], "layout: unknown option '--frob'"],
    [['check', '--jsn', 'good.layout'], "layout: unknown option '--jsn' (Did you mean --json?)"],
    [['check'], "layout: missing required argument 'paths'"],
    [['chek', 'good.layout'], "layout: unknown command 'chek' (Did you mean check?)"],
    [[], "layout: missing command (try 'layout --help')"],
    [['check', '--format', 'xml', 'good.layout'], "layout: unknown --format 'xml' (use text, json, sarif or github)"],
    [['check', '--json', '--format', 'sarif', 'good.layout'], 'layout: --json is --format json; it cannot go with --format sarif'],
    [['check', '--max-warnings', 'many', 'good.layout'], "layout: --max-warnings expects a non-negative integer, got 'many'"],
    [['check', '--max-warnings', '-1', 'good.layout'], "layout: --max-warnings expects a non-negative integer, got '-1'"],
    [['check', '--gpu-target', 'foo', 'good.layout'], "layout: unknown --gpu-target 'foo' (use sm_80, sm_86, sm_89, sm_90 or cpu)"],
    [['check', '--gpu-target', 'sm_100', 'good.layout'], "layout: unknown --gpu-target 'sm_100' (use sm_80, sm_86, sm_89, sm_90 or cpu)"],
    [['check', '-', '-'], "layout: '-' (standard input) may be given once"],
  ];
  for (const [args, line] of cases) {
    const r = layout(...args);
    assert.deepEqual({ code: r.code, err: r.err }, { code: 2, err: line + '\n' }, args.join(' '));
    assert.equal(r.out, '', args.join(' '));
  }
});

test('a missing path, or a folder without .layout files: a line each, the summary, exit 2', () => {
  assert.deepEqual(layout('check', 'missing.layout', 'empty'), {
    code: 2,
    out: '',
    err: "layout: cannot read 'missing.layout': no such file\nlayout: no .layout files in 'empty'\n" + summary(0, 0),
  });
});

test('warnings, infos and hints alone exit 0', () => {
  // a file whose only finding is not an error (an unused param is a hint)
  writeFileSync(join(dir, 'hint.layout'), 'param Q = 1\nkernel k target cuda builtin nw_antidiag { expr = 1 block_size = 16 }\n');
  const r = layout('check', '--json', 'hint.layout');
  const found = JSON.parse(r.out).diagnostics as { severity: string }[];
  assert.ok(found.length > 0 && found.every((d) => d.severity !== 'error'), r.out);
  assert.equal(r.code, 0);
});

test('an unreadable file among readable ones: the others are still checked, exit 2', () => {
  const r = layout('check', 'bad.layout', 'missing.layout');
  assert.equal(r.code, 2);
  assert.equal(r.err, "layout: cannot read 'missing.layout': no such file\n" + summary(1, 2));
  assert.equal(r.out.split('\n').filter(Boolean).length, 2);
});

test('--help and --version exit 0 on stdout', () => {
  const h = layout('--help');
  assert.equal(h.code, 0);
  assert.match(h.out, /^Usage: layout \[options\] \[command\]/);
  assert.match(h.out, /check \[options\] <paths\.\.\.>/);
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
    err: summary(1, 1),
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
    err: summary(1, 0, 1),
  });
});

test('a folder: every *.layout below it, recursively and in name order; dot-folders and node_modules skipped', () => {
  mkdirSync(join(dir, 'tree/b/deep'), { recursive: true });
  mkdirSync(join(dir, 'tree/.hidden'), { recursive: true });
  mkdirSync(join(dir, 'tree/node_modules'), { recursive: true });
  writeFileSync(join(dir, 'tree/z.layout'), 'layout Z = OrdrBy(Row(2, 2))\n');
  writeFileSync(join(dir, 'tree/b/deep/a.layout'), 'layout A = Rw(2, 2)\n');
  writeFileSync(join(dir, 'tree/b/notes.txt'), 'layout A = Rw(2, 2)\n');
  writeFileSync(join(dir, 'tree/.hidden/h.layout'), 'layout H = Rw(2, 2)\n');
  writeFileSync(join(dir, 'tree/node_modules/n.layout'), 'layout N = Rw(2, 2)\n');
  assert.deepEqual(layout('check', 'tree', 'good.layout'), {
    code: 1,
    out: [
      "tree/b/deep/a.layout:1:12: error: unknown name 'Rw' (did you mean 'Row'?) [name/undefined]",
      "tree/z.layout:1:12: error: unknown name 'OrdrBy' (did you mean 'OrderBy'?) [name/undefined]",
      '',
    ].join('\n'),
    err: summary(3, 2),
  });
});

test("'-' reads standard input, shown as <stdin> or --stdin-name", () => {
  assert.deepEqual(layoutIn('param M = 4\nlayout L = Rw(M, M)\n', 'check', '-'), {
    code: 1,
    out: "<stdin>:2:12: error: unknown name 'Rw' (did you mean 'Row'?) [name/undefined]\n",
    err: summary(1, 1),
  });
  assert.deepEqual(layoutIn('layout L = Rw(2, 2)\n', 'check', '--stdin-name', 'src/x.layout', 'good.layout', '-'), {
    code: 1,
    out: "src/x.layout:1:12: error: unknown name 'Rw' (did you mean 'Row'?) [name/undefined]\n",
    err: summary(2, 1),
  });
  assert.deepEqual(layoutIn('', 'check', '-'), { code: 0, out: '', err: summary(1, 0) });
});

test('--max-warnings N: more than N warnings exit 1, with a line saying so; N or fewer exit 0', () => {
  const out = 'kern.layout:6:3: warning: builtin softmax never uses `{{ extra }}`: the binding of `extra` has no effect [kernel/unused-binding]\n';
  assert.deepEqual(layout('check', '--max-warnings', '0', 'kern.layout'), {
    code: 1,
    out,
    err: summary(1, 0, 1) + 'layout: 1 warning, more than --max-warnings 0\n',
  });
  assert.deepEqual(layout('check', '--max-warnings', '1', 'kern.layout'), { code: 0, out, err: summary(1, 0, 1) });
});

test('--format github: workflow commands with escaped properties, notice for hints', () => {
  writeFileSync(join(dir, 'a,b:c.layout'), 'param Q = 1\nlayout L = Rw(2, 2)\n');
  const r = layout('check', '--format', 'github', 'a,b:c.layout', 'kern.layout');
  assert.equal(r.code, 1);
  assert.equal(r.err, summary(2, 1, 1, 0, 1));
  assert.deepEqual(r.out.split('\n'), [
    "::notice file=a%2Cb%3Ac.layout,line=1,col=7,endLine=1,endColumn=8,title=unused/param::param Q is never used [unused/param]",
    "::error file=a%2Cb%3Ac.layout,line=2,col=12,endLine=2,endColumn=14,title=name/undefined::unknown name 'Rw' (did you mean 'Row'?) [name/undefined]",
    '::warning file=kern.layout,line=6,col=3,endLine=6,endColumn=8,title=kernel/unused-binding::builtin softmax never uses `{{ extra }}`: the binding of `extra` has no effect [kernel/unused-binding]',
    '',
  ]);
});

test('--format sarif: a SARIF 2.1.0 log in the shape GitHub code scanning accepts', () => {
  mkdirSync(join(dir, 'sub dir'), { recursive: true });
  writeFileSync(join(dir, 'sub dir/s.layout'), 'param Q = 1\nlayout L = Rw(2, 2)\nlayout K = Rw(2, 2)\n');
  const r = layout('check', '--format', 'sarif', 'sub dir', 'kern.layout');
  assert.equal(r.code, 1);
  assert.equal(r.err, '');
  const log = JSON.parse(r.out);
  validateSarifForCodeScanning(log);
  assert.equal(log.runs.length, 1);
  const run = log.runs[0];
  assert.deepEqual(run.tool.driver.rules.map((x: { id: string; defaultConfiguration: { level: string } }) => [x.id, x.defaultConfiguration.level]), [
    ['unused/param', 'note'],
    ['name/undefined', 'error'],
    ['kernel/unused-binding', 'warning'],
  ]);
  assert.deepEqual(run.results.map((x: SarifResultShape) => [x.ruleId, x.ruleIndex, x.level, x.message.text, x.locations[0].physicalLocation.artifactLocation.uri, x.locations[0].physicalLocation.region]), [
    ['unused/param', 0, 'note', 'param Q is never used', 'sub%20dir/s.layout', { startLine: 1, startColumn: 7, endLine: 1, endColumn: 8 }],
    ['name/undefined', 1, 'error', "unknown name 'Rw' (did you mean 'Row'?)", 'sub%20dir/s.layout', { startLine: 2, startColumn: 12, endLine: 2, endColumn: 14 }],
    ['name/undefined', 1, 'error', "unknown name 'Rw' (did you mean 'Row'?)", 'sub%20dir/s.layout', { startLine: 3, startColumn: 12, endLine: 3, endColumn: 14 }],
    ['kernel/unused-binding', 2, 'warning', 'builtin softmax never uses `{{ extra }}`: the binding of `extra` has no effect', 'kern.layout', { startLine: 6, startColumn: 3, endLine: 6, endColumn: 8 }],
  ]);
  assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, pathToFileURL(dir + '/').href);
  // a clean run is a valid log with no results
  const clean = JSON.parse(layout('check', '--format', 'sarif', 'good.layout').out);
  validateSarifForCodeScanning(clean);
  assert.deepEqual(clean.runs[0].results, []);
});

interface SarifResultShape {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: Record<string, number> } }[];
}

/**
 * The SARIF 2.1.0 schema's constraints on what `layout` writes, and what GitHub code scanning requires
 * (docs.github.com, "SARIF support for code scanning"): $schema and version 2.1.0; each run's
 * tool.driver.name; rules with unique ids; each result's message.text, a ruleId whose ruleIndex points at
 * that rule, a level among none/note/warning/error, and 1 to 10 locations each with a physicalLocation whose
 * artifactLocation.uri is a relative URI reference or an absolute file URI and whose region has positive
 * 1-based lines and columns with the end not before the start. Only known properties appear.
 */
function validateSarifForCodeScanning(log: Record<string, unknown>): void {
  const only = (o: object, keys: string[], where: string) => {
    for (const k of Object.keys(o)) assert.ok(keys.includes(k), `${where}: unexpected property ${k}`);
  };
  only(log, ['$schema', 'version', 'runs'], 'log');
  assert.equal(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
  assert.equal(log.version, '2.1.0');
  assert.ok(Array.isArray(log.runs) && log.runs.length >= 1);
  for (const run of log.runs as Record<string, any>[]) {
    only(run, ['tool', 'columnKind', 'originalUriBaseIds', 'results'], 'run');
    only(run.tool, ['driver'], 'tool');
    only(run.tool.driver, ['name', 'semanticVersion', 'rules'], 'driver');
    assert.equal(typeof run.tool.driver.name, 'string');
    assert.match(run.tool.driver.semanticVersion, /^\d+\.\d+\.\d+$/);
    assert.ok(['utf16CodeUnits', 'unicodeCodePoints'].includes(run.columnKind));
    for (const [k, v] of Object.entries(run.originalUriBaseIds as Record<string, { uri: string }>)) {
      assert.match(k, /^%[A-Z]+%$/);
      assert.match(v.uri, /^file:\/\/\/.*\/$/, 'a base URI is absolute and ends in /');
    }
    const ids = (run.tool.driver.rules as Record<string, any>[]).map((r) => {
      only(r, ['id', 'name', 'shortDescription', 'defaultConfiguration'], 'rule');
      assert.equal(typeof r.id, 'string');
      assert.equal(typeof r.shortDescription.text, 'string');
      assert.ok(['none', 'note', 'warning', 'error'].includes(r.defaultConfiguration.level));
      return r.id as string;
    });
    assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
    assert.ok(Array.isArray(run.results));
    for (const res of run.results as Record<string, any>[]) {
      only(res, ['ruleId', 'ruleIndex', 'level', 'message', 'locations'], 'result');
      assert.equal(typeof res.message.text, 'string');
      assert.ok(res.message.text.length > 0);
      assert.equal(ids[res.ruleIndex], res.ruleId, 'ruleIndex points at the rule');
      assert.ok(['none', 'note', 'warning', 'error'].includes(res.level));
      assert.ok(res.locations.length >= 1 && res.locations.length <= 10);
      for (const loc of res.locations) {
        const { artifactLocation: a, region: g } = loc.physicalLocation;
        assert.ok(/^file:\/\//.test(a.uri) || (!/^[a-z]+:/i.test(a.uri) && !a.uri.startsWith('/') && a.uriBaseId in run.originalUriBaseIds), a.uri);
        assert.doesNotThrow(() => new URL(a.uri, 'file:///base/'));
        assert.ok(!/[ \\]/.test(a.uri), 'uri is encoded, with / separators');
        for (const k of ['startLine', 'startColumn', 'endLine', 'endColumn']) assert.ok(Number.isInteger(g[k]) && g[k] >= 1, k);
        assert.ok(g.endLine > g.startLine || (g.endLine === g.startLine && g.endColumn >= g.startColumn));
      }
    }
  }
}
