// `dist/server.js`: a small loader for the language server's bundle (`dist/server-bundle.js`, built
// from server.ts), through V8's code cache. Compiling the 1.4 MB bundle was about a third of the
// time from process start to the `initialize` answer; `scripts/build.mjs` writes the cache
// (`server-bundle.cache`) by running the server once through `initialize` and its warm-ups (so that
// the cache holds the analysis's and the requests' code as well), and every start, and the
// analysis worker's, then uses it instead of compiling. The cache is used only for the bundle it
// was made from (its size and modification time, recorded in the cache's first line) and the same
// V8 version; otherwise the bundle is compiled as usual. Nothing is written at run time except
// when LAYOUT_WRITE_CODE_CACHE is set (the build does that).
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { Module, createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { configureHeap } from './heap.js';

/** What the cache was made from (its first line). */
interface CacheHeader {
  size: number;
  mtimeMs: number;
  v8: string;
}

/** How the bundle was loaded: from the cache, or compiled (no cache, a stale one, or one V8 refused). */
export type CacheUse = 'used' | 'absent' | 'stale' | 'rejected';

/** The code cache's file for a bundle. */
export function cachePathOf(bundle: string): string {
  return bundle.replace(/\.js$/, '') + '.cache';
}

/** The V8 data of `bundle`'s cache, when it was made from this bundle with this V8. */
function readCache(bundle: string): { data?: Buffer; use: CacheUse } {
  let buf: Buffer;
  try {
    buf = readFileSync(cachePathOf(bundle));
  } catch {
    return { use: 'absent' };
  }
  const nl = buf.indexOf(10);
  try {
    const h = JSON.parse(buf.subarray(0, nl).toString('utf8')) as CacheHeader;
    const st = statSync(bundle);
    if (nl < 0 || h.size !== st.size || h.mtimeMs !== st.mtimeMs || h.v8 !== process.versions.v8) return { use: 'stale' };
  } catch {
    return { use: 'stale' };
  }
  return { data: buf.subarray(nl + 1), use: 'used' };
}

/**
 * Runs `bundle` as a CommonJS module whose `__filename` is `entry` (so that the server starts its
 * worker through this loader too).
 */
export function load(bundle: string, entry: string): CacheUse {
  // V8 takes a cache only under the flags it was made with: the server's heap flags are set first,
  // here as in the build's run (the bundle sets them again, a no-op). V8's flags are the process's,
  // but setting up the worker's isolate resets one of them (heap.ts), so the worker sets them again.
  configureHeap();
  let source = readFileSync(bundle, 'utf8');
  if (source.startsWith('#!')) source = '//' + source.slice(2);
  const cache = readCache(bundle);
  const script = new Script(Module.wrap(source), { filename: bundle, ...(cache.data ? { cachedData: cache.data } : {}) });
  const use: CacheUse = cache.data && script.cachedDataRejected ? 'rejected' : cache.use;
  if (process.env.LAYOUT_CODE_CACHE_DEBUG) process.stderr.write(`code cache: ${use}\n`);
  if (process.env.LAYOUT_WRITE_CODE_CACHE && isMainThread) {
    // at exit: the cache then holds every function compiled on the way (start-up, initialize, the warm-ups)
    process.once('exit', () => writeCache(bundle, script));
  }
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  const m = new Module(entry);
  m.filename = entry;
  wrapper.call(m.exports, m.exports, createRequire(entry), m, entry, join(entry, '..'));
  return use;
}

function writeCache(bundle: string, script: Script): void {
  // the cache records the flags it is made under: those every load sets first (the server may have
  // changed one since, heap.ts's growth factor)
  configureHeap();
  const st = statSync(bundle);
  const header: CacheHeader = { size: st.size, mtimeMs: st.mtimeMs, v8: process.versions.v8 };
  const file = cachePathOf(bundle);
  // a file of its own, renamed into place: two builds at once never mix their caches
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), script.createCachedData()]));
  renameSync(tmp, file);
}

if (typeof __filename === 'string' && typeof __dirname === 'string') load(join(__dirname, 'server-bundle.js'), __filename);
