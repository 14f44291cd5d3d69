// lsp/hover-priming.ts: once a version's diagnostics are published and the server is idle, the hovers
// of the layouts nearest where the user last asked are computed ahead (service/hover-prime.ts), so the
// hover itself is answered from the kept text, and says exactly what it says with nothing kept. It
// waits while the server is busy, stops a slice at a message, and drops a version the document left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LayoutDocument } from '../../server/src/service/document.js';
import { hover } from '../../server/src/service/hover.js';
import { clearHoverCache, hoverCacheStats, withoutHoverCache } from '../../server/src/service/hover-cache.js';
import { defaultSettings } from '../../server/src/service/settings.js';
import { layoutsToPrime } from '../../server/src/service/hover-prime.js';
import { HoverPriming } from '../../server/src/lsp/hover-priming.js';

const unit = (k: number) => `param M${k} = ${64 + k}, N${k} = 32\nlayout L${k} = OrderBy(Row(M${k}, N${k})).TileBy([M${k} / 2, 2], [2, N${k} / 2])\n`;
const text = Array.from({ length: 8 }, (_, k) => unit(k)).join('');
const uri = 'file:///prime.layout';
const spot = (t: string, k: number) => t.indexOf(`layout L${k} `) + 7;
const turns = async (n: number) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

function setUp(o: { busy?: () => boolean; inputWaiting?: () => boolean; max?: number; sliceMs?: number } = {}) {
  let doc = new LayoutDocument(uri, 1, text);
  const priming = new HoverPriming({
    snapshot: (u) => (u === uri ? { version: doc.version, model: doc } : undefined),
    settings: () => defaultSettings,
    busy: o.busy ?? (() => false),
    ...(o.inputWaiting ? { inputWaiting: o.inputWaiting } : {}),
    pollMs: 1,
    ...(o.max !== undefined ? { max: o.max } : {}),
    ...(o.sliceMs !== undefined ? { sliceMs: o.sliceMs } : {}),
  });
  return { priming, edit: (t: string) => (doc = new LayoutDocument(uri, doc.version + 1, t)) };
}

test('the layouts nearest the focus are primed first, at most max of them', () => {
  const doc = new LayoutDocument(uri, 1, text);
  const names = (f: number, max: number) => layoutsToPrime(doc, f, max).map((d) => d.name.name);
  assert.deepEqual(names(spot(text, 5), 3), ['L5', 'L4', 'L6']);
  assert.deepEqual(names(0, 2), ['L0', 'L1']);
  assert.deepEqual(names(text.length, 20), ['L7', 'L6', 'L5', 'L4', 'L3', 'L2', 'L1', 'L0']);
});

test('primed hovers are answered from the kept texts and equal the hovers with nothing kept; only max are primed', async () => {
  clearHoverCache();
  const { priming } = setUp({ max: 5 });
  priming.focusAt(uri, spot(text, 6));
  priming.published(uri, 1);
  for (let i = 0; i < 200 && priming.primed < 5; i++) await new Promise((r) => setTimeout(r, 2));
  await turns(5);
  assert.equal(priming.primed, 5);
  // a new version (an edit elsewhere: L0's param) asks the primed hovers: each a kept text
  const edited = text.replace('M0 = 64', 'M0 = 65');
  const next = new LayoutDocument(uri, 2, edited);
  for (const k of [6, 5, 7, 4, 3]) {
    const before = hoverCacheStats();
    const h = hover(next, spot(edited, k), defaultSettings);
    assert.equal(hoverCacheStats().misses, before.misses, `L${k} primed`);
    assert.equal(hoverCacheStats().hits, before.hits + 1);
    assert.deepEqual(h, withoutHoverCache(() => hover(new LayoutDocument(uri, 3, edited), spot(edited, k), defaultSettings)));
  }
  // L1 was not primed (the 6th nearest): computed now
  const before = hoverCacheStats();
  hover(next, spot(edited, 1), defaultSettings);
  assert.equal(hoverCacheStats().misses, before.misses + 1);
  priming.dispose();
});

test('nothing is primed while the server is busy; a message ends the slice; a version the document left is dropped', async () => {
  clearHoverCache();
  let busy = true;
  const a = setUp({ busy: () => busy });
  a.priming.published(uri, 1);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(a.priming.primed, 0, 'busy: nothing primed');
  busy = false;
  for (let i = 0; i < 1000 && a.priming.primed < 8; i++) await new Promise((r) => setTimeout(r, 2));
  assert.equal(a.priming.primed, 8, 'idle: all primed');
  a.priming.dispose();

  // a message comes once the first layout is primed, and the server stays busy after it; the slice's
  // time is long, so that only the message can end it (counting the watch's asks instead failed under
  // load: a slice whose time ran out before its first ask primed nothing, and the next one met the message)
  clearHoverCache();
  const messaged = () => b.priming.primed >= 1;
  const b = setUp({ inputWaiting: messaged, busy: messaged, sliceMs: 60_000 });
  b.priming.published(uri, 1);
  for (let i = 0; i < 1000 && b.priming.primed < 1; i++) await new Promise((r) => setTimeout(r, 2));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(b.priming.primed, 1, 'the slice stopped at the message');
  b.priming.dispose();

  // the document moves on before its turn: that version's priming is dropped
  busy = true;
  const c = setUp({ busy: () => busy });
  c.priming.published(uri, 1);
  c.edit(text.replace('M3 = 67', 'M3 = 68'));
  busy = false;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(c.priming.primed, 0);
  c.priming.dispose();
});
