// The fast path (grammar/src/fast-parse.ts: tokens straight to the AST) against Chevrotain's parser
// and lower.ts, the oracle: wherever the fast path gives an AST, Chevrotain parses the piece without
// an error and lower.ts gives the same AST (the same nodes, property order included, the same
// ranges, no object reachable twice) and the same diagnostics; whole files parse to the same AST and
// diagnostics with and without the fast path (every .layout file, every `layout` block of the docs,
// every template literal of the tests, generated files, random and mutated texts); and every piece
// of a valid program takes the fast path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { IToken } from 'chevrotain';
import { parse } from '../../grammar/src/parse.js';
import { lex } from '../../grammar/src/lexer.js';
import { Lowering } from '../../grammar/src/lower.js';
import { fastParse, type FastRule } from '../../grammar/src/fast-parse.js';
import { chevrotainParse, parseCounts, withoutFastPath } from '../../grammar/src/parser.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { WARM_UP_UNITS } from '../../server/src/lsp/warm-up.js';
import { layoutFile } from '../../bench/support/lsp-files.js';
import { generate } from '../../bench/parse.js';

/**
 * A value as plain data that keeps what deepEqual does not compare: the order of each object's
 * properties (nodes built in another order get other hidden classes), bigints as such, and which
 * objects are the same object (an object met again is `['same as', k]`, the k-th object met: a
 * range shared by two nodes is moved once by chunks.ts, two equal ranges twice).
 */
function shape(x: unknown, seen = new Map<object, number>()): unknown {
  if (typeof x === 'bigint') return `${x}n`;
  if (x === null || typeof x !== 'object') return x;
  const k = seen.get(x);
  if (k !== undefined) return ['same as', k];
  seen.set(x, seen.size);
  if (Array.isArray(x)) return x.map((v) => shape(v, seen));
  return Object.entries(x).map(([key, v]) => [key, shape(v, seen)]);
}

const rules: FastRule[] = ['declaration', 'kernelHeader', 'scheduleHeader', 'binding', 'step', 'expression'];

function lowered(rule: FastRule, tokens: IToken[], diagnostics: Diagnostic[]): unknown {
  const r = chevrotainParse(rule, tokens);
  assert.deepEqual(r.errors.map((e) => e.message), [], `${rule}: ${tokens.map((t) => t.image).join(' ')}`);
  const low = new Lowering(diagnostics);
  switch (rule) {
    case 'declaration': return low.declaration(r.cst);
    case 'kernelHeader': return low.kernelHeader(r.cst);
    case 'scheduleHeader': return low.scheduleHeader(r.cst);
    case 'binding': return low.binding(r.cst);
    case 'step': return low.step(r.cst);
    default: return low.expr(r.cst, 0);
  }
}

/** fast ⇒ Chevrotain parses without an error, and lower.ts gives the same AST and diagnostics; returns whether fast parsed it */
function agrees(rule: FastRule, tokens: IToken[]): boolean {
  const fastDiagnostics: Diagnostic[] = [];
  const fast = fastParse(rule, tokens, 0, tokens.length, fastDiagnostics);
  if (!fast) {
    assert.deepEqual(fastDiagnostics, [], 'nothing is reported when the fast path gives up');
    return false;
  }
  const slowDiagnostics: Diagnostic[] = [];
  const slow = lowered(rule, tokens, slowDiagnostics);
  const why = `${rule}: ${tokens.map((t) => t.image).join(' ')}`;
  assert.deepEqual(shape([fast, fastDiagnostics]), shape([slow, slowDiagnostics]), why);
  return true;
}

const root = join(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
const read = (f: string) => readFileSync(join(root, f), 'utf8');
/** every .layout file of the repository */
const layoutFiles = tracked.filter((f) => f.endsWith('.layout')).map(read);
/** every fenced block of the documentation (most are programs; the others are texts to parse all the same) */
const docBlocks = tracked.filter((f) => f.endsWith('.md')).flatMap((f) => [...read(f).matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]));
/** every template literal without substitutions in the tests (programs, broken ones included) */
const testTexts = tracked
  .filter((f) => f.startsWith('test/') && f.endsWith('.ts'))
  .flatMap((f) => [...read(f).matchAll(/`([^`$\\]*)`/g)].map((m) => m[1]))
  .filter((s) => s.length > 2);

const programs = [...layoutFiles, WARM_UP_UNITS.join('\n'), layoutFile(200)];

function sameParse(text: string): void {
  const fast = parse(text);
  const slow = withoutFastPath(() => parse(text));
  const why = JSON.stringify(text.slice(0, 200));
  assert.deepEqual(shape([fast.file, fast.diagnostics]), shape([slow.file, slow.diagnostics]), why);
}

test('the corpus is there', () => {
  assert.ok(layoutFiles.length >= 40, `${layoutFiles.length} .layout files`);
  assert.ok(docBlocks.length >= 20, `${docBlocks.length} doc blocks`);
  assert.ok(testTexts.length >= 500, `${testTexts.length} test texts`);
});

test('every .layout file, doc block and test text parses the same with and without the fast path', () => {
  for (const text of [...layoutFiles, ...docBlocks, ...testTexts, ...WARM_UP_UNITS]) sameParse(text);
});

test('no AST holds a token object (parse.ts re-uses the token objects of each parse for the next)', () => {
  const holdsToken = (x: unknown, seen = new Set<object>()): boolean => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return false;
    seen.add(x);
    if ('tokenTypeIdx' in x) return true;
    return Object.values(x).some((v) => holdsToken(v, seen));
  };
  for (const text of [...layoutFiles, ...docBlocks, ...testTexts]) {
    for (const r of [parse(text), withoutFastPath(() => parse(text))]) assert.ok(!holdsToken([r.file, r.diagnostics]), text.slice(0, 200));
  }
});

test('generated files (bench/support/lsp-files.ts, bench/parse.ts) parse the same with and without the fast path', () => {
  for (const lines of [500, 2000]) {
    sameParse(layoutFile(lines));
    sameParse(generate(lines));
  }
});

test('valid programs: every piece takes the fast path', () => {
  for (const p of [...programs, generate(300)]) {
    const r = parse(p);
    if (r.diagnostics.some((d) => d.code.startsWith('parse/'))) continue; // (fixtures of syntax errors)
    const before = { ...parseCounts };
    parse(p);
    assert.ok(parseCounts.fast > before.fast);
    assert.equal(parseCounts.chevrotain, before.chevrotain, p.slice(0, 80));
  }
  const before = parseCounts.chevrotain;
  parse(layoutFile(2000));
  assert.equal(parseCounts.chevrotain, before);
});

test('a piece with a syntax error goes to Chevrotain, which reports it', () => {
  const before = { ...parseCounts };
  const r = parse('let a = 1\nlet b = (2 +\nlet c = 3');
  assert.equal(parseCounts.fast - before.fast, 2);
  assert.equal(parseCounts.chevrotain - before.chevrotain, 1);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['parse/expected-expression']);
  assert.deepEqual(r.file.decls.map((d) => d.kind), ['Let', 'Let', 'Let']);
});

test('diagnostics of nodes built by the fast path: unknown target, chained comparison, unknown escape', () => {
  const text = 'kernel k target cpu template "a\\qb" where a < b < c {\n  x = 1 == 2 == 3\n}';
  const before = { ...parseCounts };
  const r = parse(text);
  assert.equal(parseCounts.chevrotain, before.chevrotain);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['parse/unknown-target', 'lex/invalid-escape', 'parse/chained-comparison', 'parse/chained-comparison']);
  sameParse(text);
  // a kernel without its block: the missing '{' is still reported after an unknown target
  const open = parse('kernel k target cpu builtin x');
  assert.deepEqual(open.diagnostics.map((d) => d.code), ['parse/unknown-target', 'parse/expected-token']);
  sameParse('kernel k target cpu builtin x');
});

const vocabulary = [
  'param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule', 'assume', 'linear', 'where', 'inverse', 'target', 'template',
  'builtin', 'for', 'on', 'if', 'then', 'else', 'and', 'or', 'not', 'in', 'cuda', 'x',
  'a', 'B', 'f', '0', '2', '1_0', '0x1', '"s"', '"u', '"\\q"', '(', ')', '[', ']', '{', '}', ',', ':', '.', '=', '==', '<', '>', '-', '+', '*',
  '/', '//', '%', '^', '&', '|', '<<', '>>', '!=', '<=', '\n',
];

test('random token sequences: the fast path parses only what Chevrotain parses without an error, to the same AST', () => {
  let fastCount = 0;
  fc.assert(
    fc.property(fc.constantFrom(...rules), fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 14 }), (rule, words) => {
      const tokens = lex(words.join(' ')).tokens;
      if (tokens.length > 0 && agrees(rule, tokens)) fastCount++;
    }),
    { numRuns: 20000 },
  );
  assert.ok(fastCount > 20, `only ${fastCount} sequences parsed`);
});

/** `text`'s tokens with edits (insert a word, delete a token, swap two), joined by spaces */
function tokenEdits(text: string, edits: { at: number; kind: number; word: string }[]): string {
  const toks = lex(text).tokens;
  let out = toks.map((t) => t.image);
  for (const e of edits) {
    const i = e.at % (out.length + 1);
    if (e.kind === 0) out = [...out.slice(0, i), e.word, ...out.slice(i)];
    else if (e.kind === 1) out = [...out.slice(0, i), ...out.slice(i + 1)];
    else if (i + 1 < out.length) out = [...out.slice(0, i), out[i + 1], out[i], ...out.slice(i + 2)];
  }
  // line breaks where the program had them, roughly: before each declaration keyword
  return out.map((w) => (/^(param|const|let|layout|perm|kernel|schedule|assume|linear)$/.test(w) ? `\n${w}` : w)).join(' ');
}

const edit = fc.record({ at: fc.nat(), kind: fc.nat(2), word: fc.constantFrom(...vocabulary) });

test('mutated programs parse the same with and without the fast path', () => {
  fc.assert(
    fc.property(fc.nat(programs.length - 1), fc.array(edit, { minLength: 1, maxLength: 5 }), (k, edits) => {
      sameParse(tokenEdits(programs[k], edits));
    }),
    { numRuns: 300 },
  );
});

test('random texts (characters) parse the same with and without the fast path', () => {
  const pieces = [...vocabulary, ' ', '\n', '#c\n', '@', '\u00e9', '\t', '"', '\\'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (words) => sameParse(words.join(''))),
    { numRuns: 3000 },
  );
});

test('mutated pieces: the fast path agrees with Chevrotain + lower.ts on each rule', () => {
  const pieces = [
    ['declaration', 'param M = 1024 in [512, 1024], N = 2 * (M + 1), K = -M // 2'],
    ['declaration', 'const T = 32'],
    ['declaration', 'layout X = OrderBy(Row(M, K)).TileBy([M / 4, K / 2], [4, 2]) where M % 4 == 0, (K > 1)'],
    ['declaration', 'perm p(n)[i, j] = if i < n and not j == 0 then (i + j, 1,) else [i, j][0:2:1] inverse(k) = [k, (0)]'],
    ['declaration', 'perm q()[i] = i'],
    ['declaration', 'linear L = blocked(shape=[16, 64], order=(1))'],
    ['declaration', 'assume tid < T * T, N % 64 == 0, (a)'],
    ['declaration', 'let a = x.inv(y)[:, 1:, ::2, a:b:c, (0:8), (1:2:3), (a):, ((b))][0,]'],
    ['declaration', 'let a = (x:y, z) + -(b).f()[1] * not "s\\t" - 1_000 + 0x1'],
    ['kernelHeader', 'kernel k target triton template "t.py" where N % 2 == 0'],
    ['kernelHeader', 'kernel k target cpu builtin nw'],
    ['scheduleHeader', 'schedule s for linalg.matmul(M, N, K) : f16 x f16 -> f32 on sm_80'],
    ['scheduleHeader', 'schedule s for scf.for.if()'],
    ['binding', 'a, b = P.inv(pid)'],
    ['step', 'h = tile(mm, [0, 0, BK])'],
    ['step', 'vectorize()'],
    ['expression', '-a + +b * not c ^ d & e | f << 2 >> 1 != g or h and i <= j'],
    ['expression', 'a < b < c == d'],
  ] as const;
  for (const [rule, text] of pieces) assert.ok(agrees(rule, lex(text).tokens), text);
  fc.assert(
    fc.property(fc.nat(pieces.length - 1), fc.array(edit, { minLength: 1, maxLength: 3 }), (k, edits) => {
      const [rule, text] = pieces[k];
      const tokens = lex(tokenEdits(text, edits)).tokens;
      if (tokens.length > 0) agrees(rule, tokens);
    }),
    { numRuns: 5000 },
  );
});
