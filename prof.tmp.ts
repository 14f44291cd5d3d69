import * as E from './server/src/expr/index.js';
import { tileBy, orderBy, row, col } from './test/expr/lego-mini.js';
const { int, sym, floorDiv, mod, cmp, min, max, simplify, printTriton, countOps, printC } = E;
const [GM, npm, npn, pid] = ['GM','num_pid_m','num_pid_n','pid'].map(sym);
const Lp = tileBy([orderBy(col(max(floorDiv(npm,GM), int(1)), int(1)), col(min(npm, GM), npn))], [[npm, npn]]);
const [pm, pn] = Lp.inv(pid);
const pf: E.Facts = { ranges: new Map([['pid',{lo:int(0), hi: E.mul(npm,npn)}]]), positive: new Set(['GM','num_pid_m','num_pid_n']) };
for (let i = 0; i < 5; i++) {
let t = performance.now();
const spn = simplify(pn, pf);
const spm = simplify(pm, pf);
console.log('time', performance.now()-t);
}
