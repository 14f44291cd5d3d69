import { warmUpStep, WARM_UP_STEPS, SPOTS } from '../server/src/service/warm-up.js';
let tot = 0; const per: number[] = [];
for (let k = 0; k < WARM_UP_STEPS; k++) { const t0 = performance.now(); warmUpStep(k); tot += performance.now() - t0; if ((k + 1) % SPOTS.length === 0) per.push(Math.round(tot)); }
console.log(per.join(' '));
