// `layout fmt`: spawns the built CLI (dist/cli.js) and checks exit codes (0 formatted / 1 --check found
// unformatted files / 2 syntax errors, unreadable paths, bad usage), exact outputs and file contents; the
// unified diff against brute force and against `diff -u`/`patch` where they exist.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { diffLines, splitLines, unifiedDiff } from '../../server/src/cli/diff.js';

const root = join(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
let dir = '';

function layout(input: string | undefined, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const messy = 'param M=4 ,N = 8\n\n\nlayout L = OrderBy(Row(M,N)).GroupBy([M, N])   # rows\n';
const tidy = 'param M = 4, N = 8\n\nlayout L = OrderBy(Row(M, N)).GroupBy([M, N])  # rows\n';
const broken = 'param M = 4\nlayout L = OrderBy(Row(M, M)\n';

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js is missing: run `node scripts/build.mjs` first');
  dir = mkdtempSync(join(tmpdir(), 'layout-fmt-'));
});

function files(contents: Record<string, string>): void {
  for (const [name, text] of Object.entries(contents)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

test('fmt FILE...: rewrites the files that are not formatted, prints nothing, exit 0', () => {
  files({ 'a.layout': messy, 'b.layout': tidy });
  assert.deepEqual(layout(undefined, 'fmt', 'a.layout', 'b.layout'), { code: 0, out: '', err: '' });
  assert.equal(read('a.layout'), tidy);
  assert.equal(read('b.layout'), tidy);
  // idempotent: a second run changes nothing
  assert.deepEqual(layout(undefined, 'fmt', '--check', 'a.layout'), { code: 0, out: '', err: '' });
});

test('--check: writes nothing, lists the unformatted files, exit 1', () => {
  files({ 'c/x.layout': messy, 'c/y.layout': tidy, 'c/sub/z.layout': messy });
  assert.deepEqual(layout(undefined, 'fmt', '--check', 'c'), { code: 1, out: 'c/sub/z.layout\nc/x.layout\n', err: '' });
  assert.equal(read('c/x.layout'), messy);
  assert.deepEqual(layout(undefined, 'fmt', '--check', 'c/y.layout'), { code: 0, out: '', err: '' });
});

test('--diff: a unified diff, nothing written; exit 0, or 1 with --check', () => {
  files({ 'd.layout': messy });
  const expected = [
    '--- d.layout',
    '+++ d.layout',
    '@@ -1,4 +1,3 @@',
    '-param M=4 ,N = 8',
    '+param M = 4, N = 8',
    ' ',
    '-',
    '-layout L = OrderBy(Row(M,N)).GroupBy([M, N])   # rows',
    '+layout L = OrderBy(Row(M, N)).GroupBy([M, N])  # rows',
    '',
  ].join('\n');
  assert.deepEqual(layout(undefined, 'fmt', '--diff', 'd.layout'), { code: 0, out: expected, err: '' });
  assert.deepEqual(layout(undefined, 'fmt', '--diff', '--check', 'd.layout'), { code: 1, out: expected, err: '' });
  assert.equal(read('d.layout'), messy);
});

test("'-': standard input to standard output", () => {
  assert.deepEqual(layout(messy, 'fmt', '-'), { code: 0, out: tidy, err: '' });
  assert.deepEqual(layout(messy, 'fmt', '--check', '-'), { code: 1, out: '<stdin>\n', err: '' });
  // what cannot be formatted passes through unchanged, with the error and status 2
  assert.deepEqual(layout(broken, 'fmt', '-'), {
    code: 2,
    out: broken,
    err: "<stdin>:2:29: error: expected ')' to close the argument list opened at 2:19 [parse/unclosed]\n",
  });
});

test('syntax errors, unreadable paths and bad usage: exit 2, the file untouched, the others formatted', () => {
  files({ 'e/bad.layout': broken, 'e/ok.layout': messy });
  assert.deepEqual(layout(undefined, 'fmt', 'e', 'missing.layout'), {
    code: 2,
    out: '',
    err: [
      "e/bad.layout:2:29: error: expected ')' to close the argument list opened at 2:19 [parse/unclosed]",
      'layout: e/bad.layout has syntax errors; not formatted',
      "layout: cannot read 'missing.layout': no such file",
      '',
    ].join('\n'),
  });
  assert.equal(read('e/bad.layout'), broken);
  assert.equal(read('e/ok.layout'), tidy);
  assert.deepEqual(layout(undefined, 'fmt'), { code: 2, out: '', err: "layout: missing required argument 'paths'\n" });
  assert.deepEqual(layout(undefined, 'fmt', '--write', 'e'), { code: 2, out: '', err: "layout: unknown option '--write'\n" });
});

test('the examples: formatting twice gives what formatting once gives', () => {
  const once = spawnSync(process.execPath, [cli, 'fmt', '-'], { cwd: root, encoding: 'utf8', input: readFileSync(join(root, 'examples/matmul.layout'), 'utf8') });
  assert.equal(once.status, 0);
  const twice = spawnSync(process.execPath, [cli, 'fmt', '--check', '-'], { cwd: root, encoding: 'utf8', input: once.stdout });
  assert.deepEqual({ code: twice.status, out: twice.stdout }, { code: 0, out: '' });
});

/** The length of a longest common subsequence, by dynamic programming. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) t[i][j] = a[i - 1] === b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
  return t[a.length][b.length];
}

test('diffLines: rebuilds both sides and keeps a longest common subsequence (brute force)', () => {
  fc.assert(fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 14 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 14 }), (a, b) => {
    const ops = diffLines(a, b);
    assert.deepEqual(ops.filter((o) => o.kind !== '+').map((o) => o.line), a);
    assert.deepEqual(ops.filter((o) => o.kind !== '-').map((o) => o.line), b);
    assert.equal(ops.filter((o) => o.kind === ' ').length, lcs(a, b));
  }), { numRuns: 1500 });
});

test('unifiedDiff: hunks as diff -u writes them, and patch applies them', { skip: !existsSync('/usr/bin/diff') || !existsSync('/usr/bin/patch') ? 'diff or patch is not installed' : false }, () => {
  const line = fc.constantFrom('a\n', 'b\n', 'c\n', 'x\n', 'y\n');
  const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.constantFrom('', 'z')).map(([ls, tail]) => ls.join('') + tail);
  const work = mkdtempSync(join(tmpdir(), 'layout-diff-'));
  fc.assert(fc.property(text, text, (a, b) => {
    writeFileSync(join(work, 'old'), a);
    writeFileSync(join(work, 'new'), b);
    const ours = unifiedDiff(a, b, 'old', 'new');
    const theirs = spawnSync('diff', ['-u', 'old', 'new'], { cwd: work, encoding: 'utf8' }).stdout.replace(/^(---|\+\+\+) (\S+)\t.*$/gm, '$1 $2');
    // the same hunks when both are minimal and the alignment is unique; always: patch rebuilds `new`
    if (splitLines(a).length < 6) assert.equal(ours.split('\n').filter((l) => l.startsWith('@@')).length, theirs.split('\n').filter((l) => l.startsWith('@@')).length);
    writeFileSync(join(work, 'patched'), a);
    writeFileSync(join(work, 'p.diff'), ours);
    const r = spawnSync('patch', ['-s', '-o', 'out', 'patched', 'p.diff'], { cwd: work, encoding: 'utf8' });
    assert.equal(r.status, ours === '' ? r.status : 0, r.stderr + r.stdout + ours);
    if (ours !== '') assert.equal(readFileSync(join(work, 'out'), 'utf8'), b);
    else assert.equal(a, b);
  }), { numRuns: 150 });
});
