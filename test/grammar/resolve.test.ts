// Name resolution: scopes, free index symbols, built-ins, references, suggestions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, resolve, type ast, type Definition } from '../../grammar/src/index.js';
import { suggest } from '../../grammar/src/resolve.js';
import { show, walk } from './helpers.js';

function run(text: string) {
  const p = parse(text);
  assert.deepEqual(show(text, p.diagnostics), [], 'no syntax errors expected');
  const r = resolve(p.file, text);
  /** every name use as `name@line:col -> kind[@line:col of the declaring identifier]` */
  const uses: string[] = [];
  for (const { node } of walk(p.file)) {
    if (node.kind !== 'Name' && node.kind !== 'Ident') continue;
    const def = r.refs.get(node);
    if (!def) continue;
    uses.push(`${node.name}@${p.lines.format(node.range.start)} -> ${def.kind}${def.ident ? '@' + p.lines.format(def.ident.range.start) : ''}`);
  }
  return { file: p.file, r, uses, diags: show(text, r.diagnostics) };
}

test('top-level names, built-ins and perm calls', () => {
  const { uses, diags } = run('param M = 4\nperm f(n)[i] = i\nlayout L = OrderBy(Row(M, min(M, 2)), GenP([M], f(M)))');
  assert.deepEqual(diags, []);
  assert.deepEqual(uses, [
    'i@2:16 -> permIndex@2:11',
    'OrderBy@3:12 -> constructor', 'Row@3:20 -> constructor', 'M@3:24 -> param@1:7', 'min@3:27 -> function', 'M@3:31 -> param@1:7',
    'GenP@3:39 -> constructor', 'M@3:45 -> param@1:7', 'f@3:49 -> perm@2:6', 'M@3:51 -> param@1:7',
  ]);
});

test('perm scopes: params and indices in the body; params and the argument in the inverse', () => {
  const text = 'param N = 3\nperm p(n)[i, j] = i * n + j + N inverse(x) = [x / n, x % n]';
  const { uses, diags } = run(text);
  assert.deepEqual(diags, []);
  assert.deepEqual(uses, [
    'i@2:19 -> permIndex@2:11', 'n@2:23 -> permParam@2:8', 'j@2:27 -> permIndex@2:14', 'N@2:31 -> param@1:7',
    'x@2:47 -> inverseArg@2:41', 'n@2:51 -> permParam@2:8', 'x@2:54 -> inverseArg@2:41', 'n@2:58 -> permParam@2:8',
  ]);
  // the indices are not visible in the inverse
  const bad = 'perm p(n)[i] = i inverse(x) = [i]';
  assert.deepEqual(show(bad, resolve(parse(bad).file, bad).diagnostics), ["1:32-1:33 name/undefined: 'i' is an index of the perm, not visible in its inverse: the inverse computes the indices from 'x'"]);
});

test('a perm parameter shadows a global of the same name; the global is used outside', () => {
  const { uses } = run('param n = 3\nperm p(n)[i] = n + i\nlet m = n');
  assert.deepEqual(uses, ['n@2:16 -> permParam@2:8', 'i@2:20 -> permIndex@2:11', 'n@3:9 -> param@1:7']);
});

test('free index symbols: in index lists and in .inv/.apply arguments, one per name and declaration', () => {
  const text = 'layout L = Row(4)\nlet a = L[i, j + di]\nlet b = L.inv(i) + L.apply(i)\nlet c = L[i]';
  const { r, diags } = run(text);
  assert.deepEqual(diags, []);
  assert.deepEqual(r.freeSymbols.map((s) => `${s.name}:${(s.decl as ast.LetDecl).name.name}`), ['i:a', 'j:a', 'di:a', 'i:b', 'i:c']);
  assert.equal(r.references(r.freeSymbols[3]).length, 2); // both uses of i in b are one symbol
  // outside those places an unknown name is an error, and a method name is never a name
  const t2 = 'layout L = Row(4)\nlet a = L.TileBy([i])';
  assert.deepEqual(show(t2, resolve(parse(t2).file, t2).diagnostics), ["2:19-2:20 name/undefined: unknown name 'i'"]);
  // a callee inside an index list is not free
  const t3 = 'layout L = Row(4)\nlet a = L[f(i)]';
  assert.deepEqual(show(t3, resolve(parse(t3).file, t3).diagnostics), ["2:11-2:12 name/undefined: unknown name 'f'"]);
});

test('kernel bindings: visible in later bindings of the same kernel only', () => {
  const text = [
    'layout P = Row(4, 4)',
    'layout A = Row(4, 4)',
    'kernel k target triton builtin matmul {',
    '  pid_m, pid_n = P.inv(pid)',
    '  off = A[pid_m, pid_n]',
    '}',
    'kernel k2 target triton builtin matmul {',
    '  off = A[pid_m, 0]',
    '}',
  ].join('\n');
  const { r, file } = run(text);
  assert.deepEqual(r.diagnostics, []);
  const [, , k, k2] = file.decls as ast.KernelDecl[];
  const idx = k.bindings[1].value as ast.IndexExpr;
  assert.equal(r.refs.get(idx.indices[0] as ast.NameRef), r.declarations.get(k.bindings[0].names[0]));
  const idx2 = k2.bindings[0].value as ast.IndexExpr;
  assert.equal(r.refs.get(idx2.indices[0] as ast.NameRef)?.kind, 'free');
});

test('schedules: step results are visible to later steps and may be re-bound; primitives; strings and the GPU are not names', () => {
  const text = 'param M = 4\nschedule s for linalg.matmul(M) on sm_90 {\n  h = findOp("linalg.matmul")\n  h = tile(h, [M])\n  vectorize(h)\n}';
  const { uses, diags } = run(text);
  assert.deepEqual(diags, []);
  assert.deepEqual(uses, [
    'M@2:30 -> param@1:7', 'findOp@3:7 -> primitive', 'tile@4:7 -> primitive', 'h@4:12 -> stepResult@3:3', 'M@4:16 -> param@1:7',
    'vectorize@5:3 -> primitive', 'h@5:13 -> stepResult@4:3',
  ]);
});

test('references, definitions and symbolAt', () => {
  const text = 'param M = 4\nlet a = M + M\nlet b = a';
  const { r } = run(text);
  const m = r.globals.get('M')!;
  assert.deepEqual(r.references(m).map((u) => u.range.start), [20, 24]);
  assert.deepEqual(r.definitions.map((d) => `${d.kind}:${d.name}`), ['param:M', 'let:a', 'let:b']);
  assert.equal(r.symbolAt(20)?.definition, m); // at the start of a use
  assert.equal(r.symbolAt(21)?.definition, m); // just after it (a cursor at the end of the name)
  assert.equal(r.symbolAt(6)?.definition, m); // on the declaring identifier
  assert.equal(text[22], '+');
  assert.equal(r.symbolAt(22), undefined); // on '+'
  assert.equal(r.symbolAt(35)?.definition, r.globals.get('a'));
  assert.equal(r.symbolAt(0), undefined); // on 'param'
});

test('duplicates keep the first definition; the second is reported with related information', () => {
  const text = 'let a = 1\nlet a = 2\nlet b = a';
  const p = parse(text);
  const r = resolve(p.file, text);
  assert.equal(r.diagnostics.length, 1);
  assert.deepEqual(r.diagnostics[0].related, [{ message: "first declaration of 'a'", range: { start: 4, end: 5 } }]);
  const b = p.file.decls[2] as ast.LetDecl;
  assert.equal(r.refs.get(b.value as ast.NameRef)?.ident?.range.start, 4);
  const before = 'let b = a\nlet a = 1';
  const r2 = resolve(parse(before).file, before);
  assert.deepEqual(r2.diagnostics[0].related, [{ message: "'a' is declared here", range: { start: 14, end: 15 } }]);
  assert.equal(r2.refs.size, 0); // a use before the declaration is not bound
});

test('suggest: case first, then small edit distances; nothing for far or tiny names', () => {
  assert.equal(suggest('OrdrBy', ['OrderBy', 'GroupBy']), 'OrderBy');
  assert.equal(suggest('Max', ['max', 'min']), 'max');
  assert.equal(suggest('tilee', ['tile', 'fuse']), 'tile');
  assert.equal(suggest('TileBY', ['TileBy', 'TileOrderBy']), 'TileBy');
  assert.equal(suggest('zzz', ['OrderBy', 'min']), undefined);
  assert.equal(suggest('x', ['y', 'z']), undefined);
  assert.equal(suggest('ab', ['ba', 'abc']), 'abc'); // distance 1 each: alphabetical
});

test('resolve accepts the text or its LineIndex and never mutates the AST', () => {
  const text = 'let a = b';
  const p = parse(text);
  const before = JSON.stringify(p.file, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
  const r1 = resolve(p.file, text);
  const r2 = resolve(p.file, p.lines);
  assert.deepEqual(r1.diagnostics, r2.diagnostics);
  assert.equal(JSON.stringify(p.file, (_, v) => (typeof v === 'bigint' ? v.toString() : v)), before);
  const d: Definition | undefined = r1.globals.get('a');
  assert.equal(d?.kind, 'let');
});

test('only the first 100 unknown names of a file get a suggestion (resolution stays linear)', () => {
  const text = Array.from({ length: 3000 }, (_, i) => `let Mxyz${i}_ = 1\nlet a${i} = Mxyz${i}`).join('\n');
  const r = resolve(parse(text).file, text);
  assert.equal(r.diagnostics.length, 3000);
  assert.equal(r.diagnostics.filter((d) => d.message.includes('did you mean')).length, 100);
  assert.equal(r.diagnostics[99].message, "unknown name 'Mxyz99' (did you mean 'Mxyz99_'?)");
  assert.equal(r.diagnostics[100].message, "unknown name 'Mxyz100'");
});

test('uses that the walk meets out of source order are still found, listed and indexed in source order', () => {
  // every construct is walked in source order; a tree built otherwise (its parts swapped) must not
  // lose a use: a unit's uses are looked up by their start
  const text = 'param M = 1, N = 2\nlet a = M + N\nlet b = a';
  const p = parse(text);
  const let_ = p.file.decls[1] as ast.LetDecl;
  const sum = let_.value as ast.Binary;
  const [m, n] = [sum.left as ast.NameRef, sum.right as ast.NameRef];
  const swapped = { ...p.file, decls: [p.file.decls[0], { ...let_, value: { ...sum, left: n, right: m } }, p.file.decls[2]] } as ast.File;
  const r = resolve(swapped, text);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.refs.get(m)?.name, 'M');
  assert.equal(r.refs.get(n)?.name, 'N');
  assert.deepEqual([...r.refs].map(([u, d]) => `${u.range.start}:${d.name}`), ['27:M', '31:N', '41:a']);
  assert.equal(r.symbolAt(31)?.node, n);
  assert.deepEqual(r.references(r.globals.get('N')!), [n]);
  assert.equal(r.isUsed(r.globals.get('M')!), true);
});

test('a declaration with many locals: each use sees the latest visible one, duplicates reported, as with few', () => {
  // past a few locals a declaration's scope is found through a map instead of a scan: the same answers
  for (const n of [3, 40]) {
    const bindings = Array.from({ length: n }, (_, k) => `  b${k} = ${k ? `b${k - 1} + 1` : '1'}`).join('\n');
    const steps = Array.from({ length: n }, () => '  mm = tile(mm, [1])').join('\n');
    const text = `kernel k target cuda builtin nw_antidiag {\n${bindings}\n  b1 = 2\n  expr = b${n - 1} + b1\n}\n` +
      `schedule s for linalg.matmul(1, 2, 3) on sm_80 {\n  mm = findOp("linalg.matmul")\n${steps}\n  vectorize()\n}\n`;
    const { file, r, diags } = run(text);
    assert.deepEqual(diags.map((d) => d.replace(/^\S+ /, '')), [`name/duplicate: 'b1' is already declared at 3:3`], String(n));
    const k = file.decls[0] as ast.KernelDecl;
    for (let j = 1; j < n; j++) {
      const use = (k.bindings[j].value as ast.Binary).left as ast.NameRef;
      assert.equal(r.refs.get(use), r.declarations.get(k.bindings[j - 1].names[0]), `b${j} uses b${j - 1}`);
    }
    const last = k.bindings[n + 1].value as ast.Binary;
    assert.equal(r.refs.get(last.left as ast.NameRef), r.declarations.get(k.bindings[n - 1].names[0]));
    assert.equal(r.refs.get(last.right as ast.NameRef), r.declarations.get(k.bindings[1].names[0]), 'the first b1 (the second is a duplicate)');
    const s = file.decls[1] as ast.ScheduleDecl;
    for (let j = 1; j <= n; j++) assert.equal(r.refs.get(s.steps[j].args[0] as ast.NameRef), r.declarations.get(s.steps[j - 1].result!), `step ${j}`);
    assert.equal(r.symbolAt(s.steps[n].args[0].range.start)?.definition, r.declarations.get(s.steps[n - 1].result!));
  }
});
