// The fast recogniser (grammar/src/fast-parse.ts) against Chevrotain's parser: wherever it gives a
// CST, Chevrotain gives the same CST without an error; whole files parse to the same AST and
// diagnostics with and without it; and it does parse every piece of valid programs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { CstNode, IToken } from 'chevrotain';
import { parse } from '../../grammar/src/parse.js';
import { lex } from '../../grammar/src/lexer.js';
import { fastParse, type FastRule } from '../../grammar/src/fast-parse.js';
import { chevrotainParse, parseCounts, withoutFastPath } from '../../grammar/src/parser.js';
import { WARM_UP_UNITS } from '../../server/src/lsp/warm-up.js';
import { layoutFile } from '../../bench/support/lsp-files.js';

/** a CST as plain data: node names, child keys (sorted), token types, images and offsets, locations */
function plain(x: CstNode | IToken): unknown {
  if ('image' in x) return [x.tokenType.name, x.image, x.startOffset, x.endOffset];
  const children: Record<string, unknown> = {};
  for (const k of Object.keys(x.children).sort()) children[k] = x.children[k].map(plain);
  return { name: x.name, location: x.location, children };
}

const rules: FastRule[] = ['declaration', 'kernelHeader', 'scheduleHeader', 'binding', 'step', 'expression'];

/** fast ⇒ Chevrotain parses without an error to the same CST; returns whether fast parsed it */
function agrees(rule: FastRule, tokens: IToken[]): boolean {
  const fast = fastParse(rule, tokens);
  if (!fast) return false;
  const slow = chevrotainParse(rule, tokens);
  assert.deepEqual(slow.errors.map((e) => e.message), [], `${rule}: ${tokens.map((t) => t.image).join(' ')}`);
  assert.deepEqual(plain(fast), plain(slow.cst), `${rule}: ${tokens.map((t) => t.image).join(' ')}`);
  return true;
}

const examplesDir = join(import.meta.dirname, '../../examples');
const programs = [
  ...readdirSync(examplesDir).filter((f) => f.endsWith('.layout')).map((f) => readFileSync(join(examplesDir, f), 'utf8')),
  WARM_UP_UNITS.join('\n'),
  layoutFile(200),
];

function sameParse(text: string): void {
  const fast = parse(text);
  const slow = withoutFastPath(() => parse(text));
  assert.deepEqual(fast.file, slow.file, JSON.stringify(text.slice(0, 200)));
  assert.deepEqual(fast.diagnostics, slow.diagnostics, JSON.stringify(text.slice(0, 200)));
}

test('valid programs: every piece takes the fast path, and the parse is the same', () => {
  for (const p of programs) {
    const before = { ...parseCounts };
    const r = parse(p);
    assert.deepEqual(r.diagnostics.filter((d) => d.code.startsWith('parse/')), []);
    assert.ok(parseCounts.fast > before.fast);
    // every piece of a valid program is parsed by the fast path
    assert.equal(parseCounts.chevrotain, before.chevrotain, p.slice(0, 80));
    sameParse(p);
  }
});

const vocabulary = [
  'param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule', 'assume', 'linear', 'where', 'inverse', 'target', 'template',
  'builtin', 'for', 'on', 'if', 'then', 'else', 'and', 'or', 'not', 'in',
  'a', 'B', 'f', '0', '2', '"s"', '"u', '(', ')', '[', ']', '{', '}', ',', ':', '.', '=', '==', '<', '>', '-', '+', '*', '/', '//', '%',
  '^', '&', '|', '<<', '!=', '\n',
];

test('random token sequences: fast parses only what Chevrotain parses without an error, to the same CST', () => {
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

/** the token sequences of the pieces of a program, for token-level mutation */
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

test('mutated programs parse the same with and without the fast path', () => {
  const edit = fc.record({ at: fc.nat(), kind: fc.nat(2), word: fc.constantFrom(...vocabulary) });
  fc.assert(
    fc.property(fc.nat(programs.length - 2), fc.array(edit, { minLength: 1, maxLength: 5 }), (k, edits) => {
      sameParse(tokenEdits(programs[k], edits));
    }),
    { numRuns: 300 },
  );
});

test('mutated pieces: fast agrees with Chevrotain on each rule', () => {
  const edit = fc.record({ at: fc.nat(), kind: fc.nat(2), word: fc.constantFrom(...vocabulary) });
  const pieces = [
    ['declaration', 'param M = 1024 in [512, 1024], N = 2 * (M + 1), K = -M // 2'],
    ['declaration', 'layout X = OrderBy(Row(M, K)).TileBy([M / 4, K / 2], [4, 2]) where M % 4 == 0, K > 1'],
    ['declaration', 'perm p(n)[i, j] = if i < n and not j == 0 then (i + j, 1,) else [i, j][0:2:1] inverse(k) = [k, 0]'],
    ['declaration', 'linear L = blocked(shape=[16, 64], order=[1, 0])'],
    ['declaration', 'assume tid < T * T, N % 64 == 0'],
    ['declaration', 'let a = x.inv(y)[:, 1:, ::2, a:b:c, (0:8), (1:2:3)]'],
    ['kernelHeader', 'kernel k target triton template "t.py" where N % 2 == 0'],
    ['scheduleHeader', 'schedule s for linalg.matmul(M, N, K) : f16 x f16 -> f32 on sm_80'],
    ['binding', 'a, b = P.inv(pid)'],
    ['step', 'h = tile(mm, [0, 0, BK])'],
    ['step', 'vectorize()'],
    ['expression', '-a + +b * not c ^ d & e | f << 2 >> 1 != g'],
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
