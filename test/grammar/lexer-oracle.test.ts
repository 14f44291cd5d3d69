// The hand-written lexer (grammar/src/lexer.ts) against Chevrotain's lexer built from the same
// token definitions (tokens.ts), with the literal checks the lexer did on Chevrotain's tokens: the
// same tokens (type, image, offsets), comments and diagnostics, on every single character, on
// random texts and on randomly mutated example programs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Lexer, type IToken } from 'chevrotain';
import { isSpace, isWellFormedInt, lex, printable, WELL_FORMED_INT, type LexResult } from '../../grammar/src/lexer.js';
import { allTokens, Int, KEYWORDS, UnterminatedString } from '../../grammar/src/tokens.js';
import type { Diagnostic } from '../../grammar/src/diagnostic.js';
import { WARM_UP_UNITS } from '../../server/src/lsp/warm-up.js';

const chevrotain = new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true });

/** what `lex` gave when it ran Chevrotain's lexer (the code it replaced) */
function oracle(text: string, base = 0): LexResult {
  const r = chevrotain.tokenize(text);
  const diagnostics: Diagnostic[] = [];
  for (const e of r.errors) {
    const bad = text.slice(e.offset, e.offset + e.length);
    const shown = bad.length > 20 ? printable(bad.slice(0, 20)) + '...' : printable(bad);
    diagnostics.push({
      code: 'lex/unexpected-character',
      severity: 'error',
      message: [...bad].length === 1 ? `unexpected character '${shown}'` : `unexpected characters '${shown}'`,
      range: { start: base + e.offset, end: base + e.offset + e.length },
    });
  }
  const comments = r.groups.comments ?? [];
  for (const c of comments) c.startOffset += base;
  for (const c of comments) c.endOffset = c.startOffset + c.image.length - 1;
  for (const t of r.tokens) {
    t.startOffset += base;
    t.endOffset = t.startOffset + t.image.length - 1;
    if (t.tokenType === Int) {
      if (WELL_FORMED_INT.test(t.image)) continue;
      diagnostics.push({
        code: 'lex/malformed-integer',
        severity: 'error',
        message: t.image.includes('.')
          ? `number '${t.image}' is not an integer: only integer literals exist`
          : `integer literal '${t.image}' is malformed`,
        range: { start: t.startOffset, end: t.startOffset + t.image.length },
      });
    } else if (t.tokenType === UnterminatedString) {
      diagnostics.push({ code: 'lex/unterminated-string', severity: 'error', message: 'unterminated string', range: { start: t.startOffset, end: t.startOffset + t.image.length } });
    }
  }
  diagnostics.sort((a, b) => a.range.start - b.range.start);
  return { tokens: r.tokens, comments, diagnostics };
}

const shape = (ts: IToken[]) => ts.map((t) => [t.tokenType.name, t.tokenTypeIdx, t.image, t.startOffset, t.endOffset]);

function assertSame(text: string, base = 0): void {
  const got = lex(text, base);
  const want = oracle(text, base);
  const why = `text ${JSON.stringify(text)}`;
  assert.deepEqual(shape(got.tokens), shape(want.tokens), why);
  assert.deepEqual(shape(got.comments), shape(want.comments), why);
  assert.deepEqual(got.diagnostics, want.diagnostics, why);
  for (const tok of got.tokens) assert.equal(tok.tokenType.tokenTypeIdx, tok.tokenTypeIdx);
}

test('isSpace is JavaScript\'s \\s on every UTF-16 code unit', () => {
  for (let c = 0; c < 0x10000; c++) assert.equal(isSpace(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
});

test('every single code unit, alone and before or after a word, lexes as with Chevrotain', () => {
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    assertSame(ch);
    assertSame(`a${ch}1`);
    if (c < 0x300) assertSame(`${ch}${ch}=x`);
  }
});

test('tricky spots: keywords and their prefixes, numbers, strings, operators, dropped characters', () => {
  for (const k of KEYWORDS) for (const s of [k, k + 's', k + '_', k + '1', k.slice(0, -1), '_' + k, k + '.' + k, k.toUpperCase()]) assertSame(s);
  for (const s of [
    '1.5', '1.', '1.x', '1..2', '1.2.3', '0x10', '12abc', '1_000', '1__0', '_1', '1_', '9.9e9', '.5',
    '"a"', '"a', '"a\\"', '"a\\"b"', '"\\', '"\\\n', '"a\\\r\n"', '"\\n\\t"', '""', '"', '"\u2028"', 'a"b\nc"',
    '<<=', '>>=', '<=>', '!==', '!', '!!', '!x', '! =', '///', '//=', '=>', '#x\r#y\n#', '#', '# \u2028 x',
    '@@@x', '@ @', '$\u00e9\u00e9', '\ud800', '\udc00x', '\ud83d\ude00 a', '\u0000\u0001a', 'a\u00a0b\ufeffc',
  ]) {
    assertSame(s);
    assertSame(s, 1234);
  }
});

const fragments = [
  ...KEYWORDS, 'a', 'b1', '_', 'x_y', 'in', 'inv', 'layouts', 'If', '0', '7', '1_0', '12ab', '1.5', '3.', '.', '"', '"s"', '\\', '\\"',
  '(', ')', '[', ']', '{', '}', ',', ':', '=', '==', '!', '!=', '<', '<<', '<=', '>', '>>', '>=', '+', '-', '*', '/', '//', '%', '^', '&', '|',
  '#', '#c', ' ', '  ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\ufeff', '@', '$', '`', '~', '?', ';', "'", '\u00e9', '\ud83d\ude00',
  '\ud800', '\u0000',
];

test('random token soup lexes as with Chevrotain', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 60 }), fc.nat(5000), (parts, base) => {
      assertSame(parts.join(''));
      assertSame(parts.join(''), base);
    }),
    { numRuns: 3000 },
  );
});

test('random strings of any code units lex as with Chevrotain', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => assertSame(s)),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'ab1_."\\#\n\r !=<>/@ \u00a0'.split('')), maxLength: 80 }), (s) => assertSame(s)),
    { numRuns: 3000 },
  );
});

const examplesDir = join(import.meta.dirname, '../../examples');
const programs = [
  ...readdirSync(examplesDir).filter((f) => f.endsWith('.layout')).map((f) => readFileSync(join(examplesDir, f), 'utf8')),
  WARM_UP_UNITS.join('\n'),
];

test('the examples, and randomly mutated examples, lex as with Chevrotain', () => {
  for (const p of programs) assertSame(p);
  const edit = fc.record({ at: fc.nat(), del: fc.nat(8), ins: fc.array(fc.constantFrom(...fragments), { maxLength: 4 }) });
  fc.assert(
    fc.property(fc.nat(programs.length - 1), fc.array(edit, { minLength: 1, maxLength: 6 }), (k, edits) => {
      let text = programs[k];
      for (const e of edits) {
        const at = e.at % (text.length + 1);
        text = text.slice(0, at) + e.ins.join('') + text.slice(at + e.del);
      }
      assertSame(text);
    }),
    { numRuns: 400 },
  );
});

test('isWellFormedInt is WELL_FORMED_INT (property)', () => {
  fc.assert(fc.property(fc.array(fc.constantFrom('0', '1', '9', '_', 'a', '.', 'x', ' '), { maxLength: 8 }).map((xs) => xs.join('')), (s) => {
    assert.equal(isWellFormedInt(s), WELL_FORMED_INT.test(s), JSON.stringify(s));
  }), { numRuns: 3000 });
});
