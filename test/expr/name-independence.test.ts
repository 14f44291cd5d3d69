// The simplifier's work and results do not depend on how symbols are spelled: the same layout
// with renamed params and lets gets the same expressions (up to the names) and op counts, and the
// prover does the same work. (Sample points used to be drawn by a hash of each symbol's name: a
// layout named `Pid5` ran the proof search where the identical `Pid0` did not, 3-10x slower.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { Sampler } from '../../server/src/expr/samples.js';

/** the grouped program-id layout of the matmul examples, its names spelled by `name` */
function pidLayout(name: (base: string) => string): string {
  const [M, BM, GM, npm, npn, Pid] = ['M', 'BM', 'GM', 'num_pid_m', 'num_pid_n', 'Pid'].map(name);
  return `param ${M} = 4096 in [1024, 2048, 4096], ${BM} = 128 in [64, 128], ${GM} = 8
let ${npm} = ${M} / ${BM}
let ${npn} = ${M} / ${BM}
layout ${Pid} = OrderBy(Col(max(${npm} / ${GM}, 1), 1), Col(min(${npm}, ${GM}), ${npn})).TileBy([${npm}, ${npn}])
`;
}

/** the hover of the layout, with the refutation attempts of the prover's sampler counted */
function hoverOf(text: string, layoutName: string): { markdown: string; ops: number[]; refutations: number } {
  const S = Sampler.prototype as unknown as { refutesNonNeg: (p: unknown) => boolean };
  const orig = S.refutesNonNeg;
  let refutations = 0;
  S.refutesNonNeg = function (this: unknown, p: unknown) {
    refutations++;
    return orig.call(this, p);
  };
  try {
    const doc = new LayoutDocument('file:///names.layout', 1, text);
    const h = hover(doc, text.indexOf(`layout ${layoutName}`) + 7, defaultSettings);
    assert.ok(h, `a hover on ${layoutName}`);
    return { markdown: h.markdown, ops: [...h.markdown.matchAll(/\((\d+) ops?/g)].map((m) => Number(m[1])), refutations };
  } finally {
    S.refutesNonNeg = orig;
  }
}

test('renamed layouts: the same expressions, op counts and prover work', () => {
  const base = hoverOf(pidLayout((b) => b + '0'), 'Pid0');
  assert.ok(base.ops.length >= 2 && base.refutations > 0, JSON.stringify(base));
  // suffixes (as in a generated file of many blocks): identical up to the names
  for (const k of [1, 5, 7, 11, 99]) {
    const h = hoverOf(pidLayout((b) => b + k), `Pid${k}`);
    assert.equal(h.markdown.replace(new RegExp(`(M|BM|GM|num_pid_m|num_pid_n|Pid)${k}\\b`, 'g'), '$1'), base.markdown.replace(/(M|BM|GM|num_pid_m|num_pid_n|Pid)0\b/g, '$1'), `suffix ${k}`);
    assert.equal(h.refutations, base.refutations, `suffix ${k}`);
  }
  // other spellings, some changing the names' alphabetical order: the same op counts and work
  const spellings: ((b: string) => string)[] = [
    (b) => `zz_${b}`,
    (b) => b.toLowerCase() + '_q',
    (b) => ({ M: 'rows', BM: 'block', GM: 'group', num_pid_m: 'a1', num_pid_n: 'a2', Pid: 'P' })[b]!,
    (b) => ({ M: 'A', BM: 'Z', GM: 'y', num_pid_m: 'x', num_pid_n: 'b', Pid: 'Q' })[b]!,
  ];
  for (const sp of spellings) {
    const h = hoverOf(pidLayout(sp), sp('Pid'));
    assert.deepEqual(h.ops, base.ops, sp('Pid'));
    assert.equal(h.refutations, base.refutations, sp('Pid'));
  }
});
