// The LEGO reference goals (from LEGO's Python artifact) as raw, unsimplified
// expressions built with the test-only restatement of the algebra, with the facts the algebra
// layer passes and the reference strings they must match (as functions, op count <= reference).
import {
  type Expr,
  type Facts,
  add,
  arange,
  cmp,
  floorDiv,
  int,
  max,
  min,
  mod,
  mul,
  select,
  sub,
  sym,
} from '../../server/src/expr/index.js';
import { col, genP, orderBy, row, tileBy } from './lego-mini.js';

export interface Goal {
  name: string;
  raw: Expr;
  facts: Facts;
  /** the reference string (Python/Triton printer, or C for NW) */
  ref: string;
  refLang: 'python' | 'c';
  /** placeholder symbols standing for aranges: name -> [arange, text of the arange in ref] */
  aranges: Map<string, { expr: Expr; text: string }>;
}

// Reference strings from LEGO's artifact (test/algebra/fixtures/lego-reference-values.json).
const refs: Record<string, string> = {
  'matmul.pid_m': "pid % min(GM, num_pid_m) + (((pid)//(num_pid_n*min(GM, num_pid_m))) % max(1, ((num_pid_m)//(GM))))*min(GM, num_pid_m)",
  'matmul.pid_n': "((pid % (num_pid_n*min(GM, num_pid_m)))//(min(GM, num_pid_m)))",
  'matmul.a_offset.NTA': "BK*k + K*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BK))[None, :])",
  'matmul.a_offset.TA': "BM*pid_m + M*(BK*k + ((tl.arange(0, BK))[None, :])) + ((tl.arange(0, BM))[:, None])",
  'matmul.b_offset.NTB': "BN*pid_n + N*(BK*k + ((tl.arange(0, BK))[:, None])) + ((tl.arange(0, BN))[None, :])",
  'matmul.b_offset.TB': "BK*k + K*(BN*pid_n + ((tl.arange(0, BN))[None, :])) + ((tl.arange(0, BK))[:, None])",
  'matmul.c_offset': "BN*pid_n + N*(BM*pid_m + ((tl.arange(0, BM))[:, None])) + ((tl.arange(0, BN))[None, :])",
  'softmax.offset': "n_cols*row_idx + tl.arange(0, BLOCK_SIZE)",
  'nw.expr_c': "((i + j - n <= -1) ? (\n   i*j + i + ((i*i + i + j*j + j)/(2))\n)\n: (\n   -i*j + 2*i*n + i + 2*j*n - n*n + 2*n - ((i*i + 3*i + j*j + 3*j)/(2)) - 1\n))",
};
const S = (n: string) => sym(n);
const zero = int(0);
const range = (lo: Expr, hi: Expr) => ({ lo, hi });
const divides = (a: Expr, b: Expr) => cmp('==', mod(b, a), zero);

function ar(stop: string, axis: number): { expr: Expr; text: string } {
  const idx = axis === 0 ? ':, None' : 'None, :';
  return { expr: arange(zero, S(stop), { axis, rank: 2 }), text: `((tl.arange(0, ${stop}))[${idx}])` };
}

function matmul(name: string, rowsDim: string, colsDim: string, rowsTile: string, colsTile: string, transposed: boolean, outer: [string, string], ref: string): Goal {
  const [R, Cc, TR, TC] = [rowsDim, colsDim, rowsTile, colsTile].map(S);
  const L = tileBy([orderBy(transposed ? col(R, Cc) : row(R, Cc))], [
    [floorDiv(R, TR), floorDiv(Cc, TC)],
    [TR, TC],
  ]);
  const raw = L.apply([S(outer[0]), S(outer[1]), S('r_'), S('c_')]);
  return {
    name,
    raw,
    facts: {
      ranges: new Map([
        [outer[0], range(zero, floorDiv(R, TR))],
        [outer[1], range(zero, floorDiv(Cc, TC))],
        ['r_', range(zero, TR)],
        ['c_', range(zero, TC)],
      ]),
      positive: new Set([rowsDim, colsDim, rowsTile, colsTile]),
      relations: [divides(TR, R), divides(TC, Cc)],
    },
    ref,
    refLang: 'python',
    aranges: new Map([
      ['r_', ar(rowsTile, 0)],
      ['c_', ar(colsTile, 1)],
    ]),
  };
}

function pid(which: 0 | 1): Goal {
  const [GM, npm, npn] = ['GM', 'num_pid_m', 'num_pid_n'].map(S);
  const L = tileBy([orderBy(col(max(floorDiv(npm, GM), int(1)), int(1)), col(min(npm, GM), npn))], [[npm, npn]]);
  return {
    name: which === 0 ? 'matmul.pid_m' : 'matmul.pid_n',
    raw: L.inv(S('pid'))[which],
    facts: { ranges: new Map([['pid', range(zero, mul(npm, npn))]]), positive: new Set(['GM', 'num_pid_m', 'num_pid_n']) },
    ref: refs[which === 0 ? 'matmul.pid_m' : 'matmul.pid_n'],
    refLang: 'python',
    aranges: new Map(),
  };
}

function softmax(): Goal {
  const L = tileBy([orderBy(row(S('n_rows'), S('n_cols')))], [[S('n_rows'), S('n_cols')]]);
  return {
    name: 'softmax.offset',
    raw: L.apply([S('row_idx'), S('t_')]),
    facts: {
      ranges: new Map([
        ['row_idx', range(zero, S('n_rows'))],
        ['t_', range(zero, S('n_cols'))],
      ]),
      positive: new Set(['n_rows', 'n_cols', 'BLOCK_SIZE']),
    },
    ref: refs['softmax.offset'],
    refLang: 'python',
    aranges: new Map([['t_', { expr: arange(zero, S('BLOCK_SIZE')), text: 'tl.arange(0, BLOCK_SIZE)' }]]),
  };
}

/** LEGO's antidiag(n, (i, j)) numbering of an n x n tile along anti-diagonals */
export function antidiag(n: Expr, [i, j]: Expr[]): Expr {
  const a = add(i, j, int(1));
  const below = add(floorDiv(mul(a, sub(a, int(1))), int(2)), i);
  const t = sub(mul(int(2), n), a);
  const above = sub(add(sub(mul(n, n), n), i), floorDiv(mul(t, sub(t, int(1))), int(2)));
  return select(cmp('<=', a, n), below, above);
}

function nw(): Goal {
  const n = S('n');
  const L = tileBy([orderBy(genP([n, n], (idx) => antidiag(n, idx)))], [[n, n]]);
  return {
    name: 'nw.expr_c',
    raw: L.apply([S('i'), S('j')]),
    facts: {
      ranges: new Map([
        ['i', range(zero, n)],
        ['j', range(zero, n)],
      ]),
      positive: new Set(['n']),
    },
    ref: refs['nw.expr_c'],
    refLang: 'c',
    aranges: new Map(),
  };
}

export function goals(): Goal[] {
  return [
    matmul('matmul.a_offset.NTA', 'M', 'K', 'BM', 'BK', false, ['pid_m', 'k'], refs['matmul.a_offset.NTA']),
    matmul('matmul.a_offset.TA', 'M', 'K', 'BM', 'BK', true, ['pid_m', 'k'], refs['matmul.a_offset.TA']),
    matmul('matmul.b_offset.NTB', 'K', 'N', 'BK', 'BN', false, ['k', 'pid_n'], refs['matmul.b_offset.NTB']),
    matmul('matmul.b_offset.TB', 'K', 'N', 'BK', 'BN', true, ['k', 'pid_n'], refs['matmul.b_offset.TB']),
    matmul('matmul.c_offset', 'M', 'N', 'BM', 'BN', false, ['pid_m', 'pid_n'], refs['matmul.c_offset']),
    pid(0),
    pid(1),
    softmax(),
    nw(),
  ];
}
