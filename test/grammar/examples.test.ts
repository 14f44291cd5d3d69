// Every example parses and resolves with no diagnostics, and means what its comments say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { examples, frontEnd, sexpr } from './helpers.js';
import type { ast } from '../../grammar/src/index.js';

const all = examples();

test('the eight examples are present', () => {
  assert.deepEqual(all.map(([n]) => n), ['figure6.layout', 'gemm-schedule.layout', 'gemm-tensorcore.layout', 'matmul.layout', 'nw.layout', 'softmax.layout', 'swizzle.layout', 'transpose.layout']);
});

for (const [name, text] of all) {
  test(`${name} parses and resolves with no diagnostics`, () => {
    const r = frontEnd(text);
    assert.deepEqual(r.diagnostics, []);
    assert.ok(r.file.decls.length > 0);
    assert.ok(r.file.comments.length > 0);
  });
}

function decl<K extends ast.Decl['kind']>(file: ast.File, kind: K, name: string): Extract<ast.Decl, { kind: K }> {
  const d = file.decls.find((x) => x.kind === kind && 'name' in x && x.name.name === name);
  assert.ok(d, `${kind} ${name}`);
  return d as Extract<ast.Decl, { kind: K }>;
}

test('figure6: the chain is written in LEGO Python order and the perm has an exact inverse', () => {
  const { file, resolution } = frontEnd(all.find(([n]) => n === 'figure6.layout')![1]);
  const fig6 = decl(file, 'Layout', 'fig6');
  assert.equal(
    sexpr(fig6.value),
    '(.GroupBy (.OrderBy (OrderBy (RegP [2 2] [1 0]) (GenP [3 3] (antidiag3))) (RegP [2 3 2 3] [0 2 1 3])) [6 6])',
  );
  const perm = decl(file, 'Perm', 'antidiag3');
  assert.deepEqual(perm.params, []);
  assert.deepEqual(perm.indices.map((i) => i.name), ['i', 'j']);
  assert.equal(perm.inverse?.arg.name, 'x');
  assert.equal(perm.inverse?.results.length, 2);
  // the perm call binds to the perm
  const uses = resolution.references(resolution.globals.get('antidiag3')!);
  assert.equal(uses.length, 1);
});

test('matmul: pid, k are free index symbols; pid_m, pid_n are kernel bindings', () => {
  const { file, resolution } = frontEnd(all.find(([n]) => n === 'matmul.layout')![1]);
  const k = decl(file, 'Kernel', 'matmul');
  assert.equal(k.target?.value, 'triton');
  assert.deepEqual(k.template?.kind === 'builtin' && k.template.name.name, 'matmul');
  assert.deepEqual(k.bindings.map((b) => b.names.map((n) => n.name).join(',')), ['pid_m,pid_n', 'offset_aptrs', 'offset_bptrs', 'offset_cptrs']);
  assert.deepEqual(resolution.freeSymbols.map((s) => s.name), ['pid', 'k']);
  assert.equal(sexpr(k.bindings[1].value), '(index A pid_m k (: _ _) (: _ _))');
  const a = k.bindings[1].value as ast.IndexExpr;
  assert.equal(resolution.refs.get(a.indices[0] as ast.NameRef)?.kind, 'binding');
  assert.equal(resolution.refs.get(a.indices[1] as ast.NameRef)?.kind, 'free');
});

test('matmul: parameters with candidates', () => {
  const { file } = frontEnd(all.find(([n]) => n === 'matmul.layout')![1]);
  const items = file.decls.filter((d): d is ast.ParamDecl => d.kind === 'Param').flatMap((d) => d.items);
  const bm = items.find((i) => i.name.name === 'BM')!;
  assert.equal(sexpr(bm.value), '128');
  assert.equal(bm.candidates && sexpr(bm.candidates), '[64 128 256]');
});

test('gemm-schedule: the payload op, the GPU and the steps', () => {
  const { file, resolution } = frontEnd(all.find(([n]) => n === 'gemm-schedule.layout')![1]);
  const s = decl(file, 'Schedule', 'gemm');
  assert.equal(s.op?.name, 'linalg.matmul');
  assert.deepEqual(s.op?.args.map(sexpr), ['M', 'N', 'K']);
  assert.equal(s.gpu?.name, 'sm_90');
  assert.deepEqual(s.steps.map((st) => st.primitive.name), ['findOp', 'tileForGrids', 'tile', 'promote', 'parallelizeForThreads', 'vectorize', 'bufferize']);
  assert.equal(s.steps[0].result?.name, 'mm');
  const mmUse = s.steps[1].args[0] as ast.NameRef;
  assert.equal(resolution.refs.get(mmUse)?.kind, 'stepResult');
  assert.equal(resolution.refs.get(s.steps[1].primitive)?.kind, 'primitive');
});

test('nw: the perm parameter n shadows the global param n inside the perm', () => {
  const { file, resolution } = frontEnd(all.find(([n]) => n === 'nw.layout')![1]);
  const perm = decl(file, 'Perm', 'antidiag');
  const body = perm.body as ast.IfExpr;
  const cond = body.cond as ast.Binary;
  assert.equal(resolution.refs.get(cond.right as ast.NameRef)?.kind, 'permParam');
  const layout = decl(file, 'Layout', 'anti_diag');
  assert.equal(sexpr(layout.value), '(.TileBy (OrderBy (GenP [n n] (antidiag n))) [n n])');
  const call = ((layout.value as ast.MethodCall).receiver as ast.Call).args[0] as ast.Call;
  assert.equal(resolution.refs.get((call.args[1] as ast.Call).args[0] as ast.NameRef)?.kind, 'param');
});

/** integer value of a perm body (Python floor semantics for / and %), for the tests below */
function evalInt(e: ast.Expr, env: Record<string, bigint>): bigint {
  const floorDiv = (a: bigint, b: bigint) => (a / b) - ((a % b !== 0n && (a < 0n) !== (b < 0n)) ? 1n : 0n);
  switch (e.kind) {
    case 'Int': return e.value;
    case 'Name': assert.ok(e.name in env, e.name); return env[e.name];
    case 'Unary': return e.op === '-' ? -evalInt(e.operand, env) : e.op === '+' ? evalInt(e.operand, env) : (evalInt(e.operand, env) ? 0n : 1n);
    case 'If': return evalInt(e.cond, env) ? evalInt(e.then, env) : evalInt(e.else, env);
    case 'Binary': {
      const a = evalInt(e.left, env);
      const b = evalInt(e.right, env);
      switch (e.op) {
        case '+': return a + b; case '-': return a - b; case '*': return a * b;
        case '/': case '//': return floorDiv(a, b); case '%': return a - b * floorDiv(a, b);
        case '<': return a < b ? 1n : 0n; case '<=': return a <= b ? 1n : 0n; case '>': return a > b ? 1n : 0n;
        case '>=': return a >= b ? 1n : 0n; case '==': return a === b ? 1n : 0n; case '!=': return a !== b ? 1n : 0n;
        case 'and': return a && b ? 1n : 0n; case 'or': return a || b ? 1n : 0n;
      }
    }
  }
  throw new Error(`cannot evaluate ${e.kind}`);
}

function table(perm: ast.PermDecl, n: number, params: Record<string, bigint>): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Number(evalInt(perm.body, { ...params, i: BigInt(i), j: BigInt(j) }))));
}

test('figure6: antidiag3 is the anti-diagonal order of a 3x3 tile and its inverse is exact', () => {
  const perm = decl(frontEnd(all.find(([n]) => n === 'figure6.layout')![1]).file, 'Perm', 'antidiag3');
  const t = table(perm, 3, {});
  assert.deepEqual(t, [[0, 1, 3], [2, 4, 6], [5, 7, 8]]); // the LEGO paper's Figure 6
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const back = perm.inverse!.results.map((r) => Number(evalInt(r, { x: BigInt(t[i][j]) })));
      assert.deepEqual(back, [i, j]);
    }
  }
});

test('nw: antidiag(n) matches the reference tables for n = 3 and 4 and is a bijection up to 17', () => {
  const perm = decl(frontEnd(all.find(([n]) => n === 'nw.layout')![1]).file, 'Perm', 'antidiag');
  assert.deepEqual(table(perm, 3, { n: 3n }), [[0, 1, 3], [2, 4, 6], [5, 7, 8]]);
  assert.deepEqual(table(perm, 4, { n: 4n }), [[0, 1, 3, 6], [2, 4, 7, 10], [5, 8, 11, 13], [9, 12, 14, 15]]);
  for (let n = 1; n <= 17; n++) {
    const values = table(perm, n, { n: BigInt(n) }).flat().sort((a, b) => a - b);
    assert.deepEqual(values, Array.from({ length: n * n }, (_, k) => k), `n = ${n}`);
  }
});
