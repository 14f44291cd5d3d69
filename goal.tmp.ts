import * as E from './server/src/expr/index.js';
import { tileBy, orderBy, row, col } from './test/expr/lego-mini.js';
const { int, sym, floorDiv, mod, cmp, min, max, simplify, printTriton, countOps, printC } = E;
const [M,K,BM,BK,pid_m,k,r,c] = ['M','K','BM','BK','pid_m','k','r','c'].map(sym);
const facts: E.Facts = {
  ranges: new Map([['pid_m',{lo:int(0),hi:floorDiv(M,BM)}],['k',{lo:int(0),hi:floorDiv(K,BK)}],['r',{lo:int(0),hi:BM}],['c',{lo:int(0),hi:BK}]]),
  positive: new Set(['M','K','BM','BK']),
  relations: [cmp('==', mod(M,BM), int(0)), cmp('==', mod(K,BK), int(0))],
};
for (const TA of [false, true]) {
  const L = tileBy([orderBy(TA ? col(M,K) : row(M,K))], [[floorDiv(M,BM), floorDiv(K,BK)],[BM,BK]]);
  const raw = L.apply([pid_m,k,r,c]);
  console.log('raw ops', countOps(raw), printTriton(raw).length);
  let t = performance.now();
  const s = simplify(raw, facts);
  console.log('time', performance.now()-t);
  console.log(printTriton(s), countOps(s));
}
// pid
const [GM, npm, npn, pid] = ['GM','num_pid_m','num_pid_n','pid'].map(sym);
const Lp = tileBy([orderBy(col(max(floorDiv(npm,GM), int(1)), int(1)), col(min(npm, GM), npn))], [[npm, npn]]);
const [pm, pn] = Lp.inv(pid);
const pf: E.Facts = { ranges: new Map([['pid',{lo:int(0), hi: E.mul(npm,npn)}]]), positive: new Set(['GM','num_pid_m','num_pid_n']) };
let t = performance.now();
const spm = simplify(pm, pf), spn = simplify(pn, pf);
console.log('time', performance.now()-t);
console.log(countOps(pm), printTriton(spm), countOps(spm));
console.log(countOps(pn), printTriton(spn), countOps(spn));
console.log(printC(spm));
