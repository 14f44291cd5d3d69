// Malformed inputs: each gives exactly the expected diagnostics (code, message, range as
// line:col-line:col, 1-based), and the declaration written AFTER the broken text is still
// parsed and resolved. Every case is wrapped as
//   param P = 1
//   <case>
//   let after = P + 1
// so line 2 is the case's first line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { frontEnd, show } from './helpers.js';

const cases: [name: string, src: string, expected: string[]][] = [
  ['unclosed list', 'let a = [1, 2', ["2:14-2:14 parse/unclosed: expected ']' to close the list opened at 2:9"]],
  ['unclosed parenthesis', 'let a = (P + 2', ["2:15-2:15 parse/unclosed: expected ')' to close the '(' opened at 2:9"]],
  ['unclosed call', 'let a = min(P, 2', ["2:17-2:17 parse/unclosed: expected ')' to close the argument list opened at 2:12"]],
  ['unclosed outer call', 'layout L = OrderBy(Row(4, 4).TileBy([2, 2], [2, 2])',
    ["2:52-2:52 parse/unclosed: expected ')' to close the argument list opened at 2:19"]],
  ['unclosed index list', 'layout L = OrderBy(Row(4, 4)).GroupBy([4, 4])\nlet a = L[1, 2',
    ["3:15-3:15 parse/unclosed: expected ']' to close the index list opened at 3:10"]],
  ['missing comma', 'let a = [1 2]', ["2:11-2:11 parse/expected-token: expected ',' or ']' after '1'"]],
  ['missing expression', 'let a =', ["2:8-2:8 parse/expected-expression: expected an expression after '='"]],
  ['missing operand', 'let a = P *', ["2:12-2:12 parse/expected-expression: expected an expression after '*'"]],
  ['missing =', 'let a P', ["2:6-2:6 parse/expected-token: expected '=' after 'a'"]],
  ['missing name', 'let = 5', ["2:4-2:4 parse/expected-token: expected a name after 'let'"]],
  ['malformed integer', 'let a = 12abc', ["2:9-2:14 lex/malformed-integer: integer literal '12abc' is malformed"]],
  ['fraction', 'let a = 1.5', ["2:9-2:12 lex/malformed-integer: number '1.5' is not an integer: only integer literals exist"]],
  ['misspelled constructor', 'layout L = OrdrBy(Row(4, 4))', ["2:12-2:18 name/undefined: unknown name 'OrdrBy' (did you mean 'OrderBy'?)"]],
  ['SymPy capitalisation', 'let a = Max(P, 1)', ["2:9-2:12 name/undefined: unknown name 'Max' (did you mean 'max'?)"]],
  ['unknown name', 'let a = zzz', ["2:9-2:12 name/undefined: unknown name 'zzz'"]],
  ['unterminated string (swallows the block end)', 'schedule s for linalg.matmul(P) { h = findOp("linalg.matmul) }',
    ['2:46-2:63 lex/unterminated-string: unterminated string']],
  ['unterminated string (swallows the block start)', 'kernel k target cuda template "t.cu {\n  x = 1\n}',
    ['2:31-2:38 lex/unterminated-string: unterminated string']],
  ['stray words', 'foo bar',
    ["2:1-2:4 parse/unexpected-token: unexpected 'foo' here: expected a declaration (param, let, layout, perm, kernel, schedule)"]],
  ['misspelled keyword', 'lyout L = Row(4)',
    ["2:1-2:6 parse/unexpected-token: unexpected 'lyout' here: expected a declaration (param, let, layout, perm, kernel, schedule); did you mean 'layout'?"]],
  ['stray brace', '}', ["2:1-2:2 parse/unexpected-token: unexpected '}' here: expected a declaration (param, let, layout, perm, kernel, schedule)"]],
  ['= instead of ==', 'let a = P = 1',
    ["2:11-2:12 parse/unexpected-token: unexpected '=' here: expected a declaration (param, let, layout, perm, kernel, schedule); to compare, use '=='"]],
  ['trailing comma after a declaration', 'let a = P,',
    ["2:10-2:11 parse/unexpected-token: unexpected ',' here: expected a declaration (param, let, layout, perm, kernel, schedule)"]],
  ['unexpected character (one error, no cascade)', 'let a = P @ 2', ["2:11-2:12 lex/unexpected-character: unexpected character '@'"]],
  ['binary garbage', '\u0000\u0001\u0002\u00ff', ["2:1-2:5 lex/unexpected-character: unexpected characters '\\u0000\\u0001\\u0002\u00ff'"]],
  ['unterminated block', 'kernel k target cuda builtin b {\n  x = 1', ["3:8-3:8 parse/unclosed: expected '}' to close the block opened at 2:32"]],
  ['unknown target', 'kernel k target opencl builtin b { x = 1 }', ["2:17-2:23 parse/unknown-target: unknown target 'opencl': expected cuda, triton or mlir"]],
  ['missing template', 'kernel k target cuda { x = 1 }',
    [`2:21-2:21 parse/expected-token: expected 'template "PATH"' or 'builtin NAME' after 'cuda'`]],
  ['missing {', 'kernel k target cuda builtin b x = 1 }', ["2:31-2:31 parse/expected-token: expected '{' after 'b'"]],
  ['junk before {', 'kernel k target cuda builtin b junk { x = 1 }', ["2:32-2:36 parse/unexpected-token: unexpected 'junk' here: expected '{'"]],
  ['junk statement', 'kernel k target cuda builtin b { 5 x = 1 }',
    ["2:34-2:35 parse/unexpected-token: unexpected '5' here: expected a binding (NAME = EXPR) or '}'"]],
  ['junk after a block', 'kernel k target cuda builtin b { x = 1 } extra',
    ["2:42-2:47 parse/unexpected-token: unexpected 'extra' here: expected a declaration (param, let, layout, perm, kernel, schedule)"]],
  ['unknown primitive', 'schedule s for linalg.matmul(P) { tilee(P) }', ["2:35-2:40 name/unknown-primitive: unknown schedule primitive 'tilee' (did you mean 'tile'?)"]],
  ['unclosed step', 'schedule s for linalg.matmul(P) {\n  h = findOp("linalg.matmul")\n  tile(h, [0, 0, 1]\n  vectorize()\n}',
    ["4:20-4:20 parse/unclosed: expected ')' to close the argument list opened at 4:7"]],
  ['schedule without op', 'schedule s for (P) { vectorize() }', ["2:15-2:15 parse/expected-token: expected a name after 'for'"]],
  ['unknown handle in a schedule', 'schedule s for linalg.matmul(P) { tile(hh, [1]) }', ["2:40-2:42 name/undefined: unknown name 'hh'"]],
  ['perm without indices', 'perm p(n)[] = 0', ["2:11-2:11 parse/expected-token: expected an index name after '['"]],
  ['perm missing comma', 'perm p(n)[i j] = i', ["2:12-2:12 parse/expected-token: expected ',' or ']' after 'i'"]],
  ['chained comparison', 'let a = 1 < P < 3',
    ["2:15-2:16 parse/chained-comparison: comparisons cannot be chained: combine them with 'and' (a < b and b < c)"]],
  ['if without else', 'let a = if P then 1', ["2:20-2:20 parse/expected-token: expected 'else' after '1'"]],
  ['method without arguments', 'layout L = Row(4)\nlet a = L.inv', ["3:14-3:14 parse/expected-token: expected '(' after 'inv'"]],
  ['dangling dot', 'layout L = Row(4)\nlet a = L.', ["3:11-3:11 parse/expected-token: expected a name after '.'"]],
  ['slice with two steps', 'layout L = Row(4)\nlet a = L[1:2:3:4]', ["3:16-3:16 parse/expected-token: expected ',' or ']' after '3'"]],
  ['empty index list', 'layout L = Row(4)\nlet a = L[]', ["3:11-3:11 parse/expected-token: expected an index or a slice after '['"]],
  ['empty parentheses', 'let a = ()', ["2:10-2:10 parse/expected-expression: expected an expression after '('"]],
  ['candidates not a list', 'param M = 4 in 5', ["2:15-2:15 parse/expected-token: expected '[' after 'in'"]],
  ['param without =', 'param M 4096', ["2:8-2:8 parse/expected-token: expected '=' after 'M'"]],
  ['unterminated string followed by white space (not part of it)', 'kernel k target cuda template "t.cu \t \n{\n}',
    ['2:31-2:36 lex/unterminated-string: unterminated string']],
  ['unterminated string ending in an escaped space (up to the backslash)', 'kernel k target cuda template "t\\ \n{\n}',
    ['2:31-2:34 lex/unterminated-string: unterminated string']],
  ['unknown escape', 'kernel k target cuda template "a\\qb" { x = 1 }',
    ["2:33-2:35 lex/invalid-escape: unknown escape '\\q' in string: use \\n, \\t, \\\\ or \\\""]],
  ['nesting too deep', 'let a = ' + '['.repeat(70) + ']'.repeat(70),
    ['2:73-2:74 parse/too-complex: brackets nest more than 64 levels deep here; this declaration is not analysed']],
  ['duplicate', 'let a = 1\nlet a = 2', ["3:5-3:6 name/duplicate: 'a' is already declared at 2:5"]],
  ['use before declaration', 'let a = b\nlet b = 1', ["2:9-2:10 name/use-before-declaration: 'b' is used before its declaration at 3:5"]],
  ['use before declaration in one param', 'param A = B, B = 1', ["2:11-2:12 name/use-before-declaration: 'B' is used before its declaration at 2:14"]],
  ['self reference', 'let a = a + 1', ["2:9-2:10 name/self-reference: 'a' is used in its own declaration"]],
  ['reserved name', 'let min = 1', ["2:5-2:8 name/reserved: 'min' is a built-in function and cannot be redeclared"]],
  ['reserved constructor name', 'layout Row = Col(2)', ["2:8-2:11 name/reserved: 'Row' is a built-in constructor and cannot be redeclared"]],
  ['duplicate perm index', 'perm p(n)[i, i] = i', ["2:14-2:15 name/duplicate: 'i' is already declared at 2:11"]],
  ['inverse argument named like a parameter', 'perm p(n)[i] = i inverse(n) = [n]', ["2:26-2:27 name/duplicate: 'n' is already declared at 2:8"]],
  ['duplicate kernel binding', 'kernel k target cuda builtin b {\n  x = 1\n  x = 2\n}', ["4:3-4:4 name/duplicate: 'x' is already declared at 3:3"]],
];

for (const [name, src, expected] of cases) {
  test(`malformed: ${name}`, () => {
    const text = `param P = 1\n${src}\nlet after = P + 1\n`;
    const r = frontEnd(text);
    assert.deepEqual(show(text, r.diagnostics), expected);
    // the declaration after the broken text is parsed and its use of P resolved
    const after = r.file.decls[r.file.decls.length - 1];
    assert.equal(after.kind, 'Let');
    assert.equal(after.kind === 'Let' && after.name.name, 'after');
    const use = after.kind === 'Let' && after.value.kind === 'Binary' ? after.value.left : undefined;
    assert.equal(use?.kind, 'Name');
    const def = r.resolution.refs.get(use as never);
    assert.equal(def?.kind, 'param');
    assert.equal(def?.ident?.range.start, text.indexOf('P'));
  });
}

test('there are at least 30 malformed cases', () => {
  assert.ok(cases.length >= 30, `${cases.length}`);
});

test('a broken statement does not hide the statements after it', () => {
  const text = 'param P = 1\nlayout L = Row(4)\nkernel k target cuda builtin b {\n  x = L[1,\n  y = P\n  z = L[y]\n}\n';
  const r = frontEnd(text);
  assert.deepEqual(show(text, r.diagnostics), ["4:11-4:11 parse/unclosed: expected ']' to close the index list opened at 4:8"]);
  const k = r.file.decls[2];
  assert.equal(k.kind, 'Kernel');
  if (k.kind !== 'Kernel') return;
  assert.deepEqual(k.bindings.map((b) => b.names.map((n) => n.name).join(',')), ['x', 'y', 'z']);
  const y = k.bindings[1].value;
  assert.equal(r.resolution.refs.get(y as never)?.kind, 'param');
  // `y` in z's index list is the binding, not a free symbol
  const z = k.bindings[2].value;
  assert.equal(z.kind, 'Index');
  if (z.kind === 'Index') assert.equal(r.resolution.refs.get(z.indices[0] as never)?.kind, 'binding');
});

test('several errors in one file are all reported, once each', () => {
  const text = [
    'let a = [1, 2',
    'let b = 3 +',
    'layout C = OrdrBy(Row(2))',
    'kernel k target cuda builtin x {',
    '  p = (1',
    '  q = 2',
    '} extra',
    'let d = a',
  ].join('\n');
  const r = frontEnd(text);
  assert.deepEqual(show(text, r.diagnostics), [
    "1:14-1:14 parse/unclosed: expected ']' to close the list opened at 1:9",
    "2:12-2:12 parse/expected-expression: expected an expression after '+'",
    "3:12-3:18 name/undefined: unknown name 'OrdrBy' (did you mean 'OrderBy'?)",
    "5:9-5:9 parse/unclosed: expected ')' to close the '(' opened at 5:7",
    "7:3-7:8 parse/unexpected-token: unexpected 'extra' here: expected a declaration (param, let, layout, perm, kernel, schedule)",
  ]);
  assert.deepEqual(r.file.decls.map((d) => d.kind), ['Let', 'Let', 'Layout', 'Kernel', 'Let']);
});

test('newlines do not end expressions: an operand on the next line continues the expression', () => {
  const text = 'let a = 3 +\nb';
  assert.deepEqual(show(text, frontEnd(text).diagnostics), ["2:1-2:2 name/undefined: unknown name 'b'"]);
});

test('an empty file, or only comments, has no diagnostics and no declarations', () => {
  for (const text of ['', '   \n\n', '# only a comment', '# a\n# b\n']) {
    const r = frontEnd(text);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.file.decls, []);
  }
  assert.deepEqual(frontEnd('# a\n  # b').file.comments.map((c) => [c.text, c.range.start, c.range.end]), [[' a', 0, 3], [' b', 6, 9]]);
});

test('more than 100 syntax errors: 100 reported plus one saying how many were left out', () => {
  const text = Array.from({ length: 130 }, (_, i) => `let a${i} = ]`).join('\n');
  const r = frontEnd(text);
  assert.equal(r.diagnostics.length, 101);
  const lastOne = r.diagnostics[100];
  assert.equal(lastOne.code, 'parse/too-many-errors');
  assert.equal(lastOne.severity, 'information');
  assert.equal(lastOne.message, '30 more syntax errors not shown');
});

test('too many operators in one declaration are reported, not parsed', () => {
  const text = `let a = ${Array.from({ length: 2002 }, () => '1').join(' + ')}\nlet b = 1`;
  const r = frontEnd(text);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['parse/too-complex']);
  assert.equal(r.diagnostics[0].message, 'more than 2000 operators in one declaration or statement; it is not analysed');
  assert.deepEqual(r.file.decls.map((d) => d.kind === 'Let' && d.name.name), ['b']);
});

test('too many if expressions (an else-if chain nests) are reported, not parsed; 256 are fine', () => {
  const chain = (n: number) => `let a = ${Array.from({ length: n }, (_, i) => `if P == ${i} then ${i} else `).join('')}0\nlet b = 1`;
  const ok = frontEnd(`param P = 1\n${chain(256)}`);
  assert.deepEqual(ok.diagnostics, []);
  const r = frontEnd(chain(257));
  assert.deepEqual(r.diagnostics.map((d) => [d.code, d.message]), [
    ['parse/too-complex', "more than 256 'if' expressions in one declaration or statement; it is not analysed"],
  ]);
  assert.equal(r.diagnostics[0].range.start, chain(257).lastIndexOf('if P'));
  assert.deepEqual(r.file.decls.map((d) => d.kind === 'Let' && d.name.name), ['b']);
});

test('an internal failure (here: a stack overflow on a small stack) becomes one diagnostic; the rest is analysed', () => {
  const script = [
    "import { parse } from './grammar/src/index.ts';",
    "const text = 'let a = ' + Array.from({ length: 256 }, (_, i) => `if a then ${i} else `).join('') + '0\\nlet b = 2';",
    'const r = parse(text);',
    "console.log(JSON.stringify({ d: r.diagnostics.map((d) => [d.code, d.message, d.range.start, d.range.end]), decls: r.file.decls.map((d) => d.name.name) }));",
  ].join('\n');
  const out = spawnSync(process.execPath, ['--stack-size=200', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: join(import.meta.dirname, '../..') });
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), {
    d: [['parse/internal-error', 'internal error while parsing this declaration (it nests too deeply); it is not analysed', 0, 3]],
    decls: ['b'],
  });
});

test('large broken inputs finish and report at most 101 diagnostics', () => {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const garbage = Array.from({ length: 200_000 }, () => String.fromCharCode(Math.floor(rnd() * 256))).join('');
  const many = Array.from({ length: 20_000 }, (_, i) => `let a${i} = @ [${i}`).join('\n');
  for (const text of [garbage, many]) {
    const r = frontEnd(text);
    assert.ok(r.diagnostics.length > 0);
    assert.ok(r.diagnostics.filter((d) => d.code.startsWith('lex/') || d.code.startsWith('parse/')).length <= 101);
  }
  // the 20,000 declarations are all there (each reports only its dropped '@', not its missing ']')
  const r = frontEnd(many);
  assert.equal(r.file.decls.length, 20_000);
});
