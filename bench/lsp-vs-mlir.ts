// Editor latency side by side with MLIR's own C++ language server (`mlir-lsp-server-22`), the
// anchor of issue 14. Both servers run at once over stdio with one client each, requests
// interleaved (ours, MLIR, ours, ...), on generated files of equal line counts that have no
// diagnostics at all (bench/lsp-files.ts): for 500, 2,000, 10,000 and 20,000 lines,
// - spawn -> initialize result (both processes spawned, then `initialize` sent to both at once: the
//   time includes each process's start-up); didOpen -> first publishDiagnostics, sent right after
//   `initialized` (as an editor opens its documents) and 200 ms after it, each the p50 of OPEN_RUNS
//   fresh processes per server; and 200 ms after it with the requests an editor sends along
//   (VS Code: documentSymbol, foldingRange, semanticTokens/full) -> first diagnostics, and -> the
//   last of them answered (a server without one answers an error at once: MLIR's has no folding or
//   semantic tokens); in the run's own processes (opened 200 ms after `initialized`),
//   didOpen -> the complete diagnostics (our
//   server publishes a large file's syntax and name diagnostics first, then the full set: the last
//   publish of the opened version once the server has gone idle, no CPU tick for 300 ms);
// - didChange (one digit of a constant) -> publishDiagnostics of that version, p50 / p95, with our
//   debounce at 0 (the server's own work) and with the default settings (what a user waits; the
//   default debounce is 0 too, so the two rows differ only by the settings pull);
// - typing: didChange that inserts a space before a constant or deletes it again (the text's length
//   changes: every later line moves) -> publishDiagnostics, p50 / p95, debounce 0;
// - server CPU per edit (/proc/PID/stat, worker threads included; 10 ms ticks, averaged);
// - hover right after an edit (the first request on the new version, at a spot not hovered before:
//   up to AFTER_EDIT_HOVERS samples), hover the first time at a spot and repeated at it (p50 / p95), completion (p50 / p95; the client declares the completion-list item
//   defaults that VS Code declares, so our server sends the edit range once per list);
// - semantic tokens (full) right after an edit's diagnostics, p50 / p95: VS Code asks for them after
//   every change (ours only: MLIR's server has none); and full/delta, as VS Code asks once it holds a
//   result (the edits since the last result the client holds);
// - RSS after the run, 3 s later (idle: what a server keeps between a user's edits), and its peak
//   (VmHWM), per server.
// A request's position is computed before its clock starts (the client's TextDocument over the
// whole text: about 1 ms at 10,000 lines, client-side work); its answer's parsing is counted.
// Every row carries the ratio ours / MLIR. `node --import tsx bench/lsp-vs-mlir.ts [sizes...]`
// prints the table and writes bench/results/lsp-vs-mlir.json and .md. Without mlir-lsp-server-22
// on PATH (or LAYOUT_MLIR_LSP naming it) the MLIR columns are empty.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, realpathSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { layoutFile, mlirFile } from './support/lsp-files.js';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
const LINES = SIZES.length ? SIZES : [500, 2000, 10_000, 20_000];
const MLIR_LSP = process.env.LAYOUT_MLIR_LSP ?? 'mlir-lsp-server-22';
const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** Edits per size and setting (fewer on big files so that a run stays near 3 minutes). */
const edits = (lines: number) => (lines <= 2000 ? 30 : lines <= 10_000 ? 16 : 10);
const WARMUP_EDITS = 4;
/**
 * Fresh processes per server whose first open is timed (the p50 is the row's figure). It was 5: at
 * 500 lines, three runs of the same code gave 4.3, 5.3 and 6.8 ms (and 9.0 in a fourth).
 */
const OPEN_RUNS = 9;
/** what VS Code asks for as it opens a document (besides code lenses and inlay hints, for the visible range) */
const EDITOR_OPEN_REQUESTS = ['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/semanticTokens/full'];
/** semantic-token requests timed after edits */
const SEMANTIC_TOKEN_EDITS = 16;
const HOVER_SPOTS = 12;
/**
 * Hovers right after an edit, each at a spot not hovered before (a first hover there): at most this
 * many, as many as the file has spots. It was min(edits, 12), 10 at 20,000 lines: the "p95" of 10 or
 * 12 samples is their slowest one.
 */
const AFTER_EDIT_HOVERS = 40;
/** How long after the run the idle RSS is read. */
const IDLE_RSS_MS = 3000;

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
interface Dist { n: number; p50: number; p95: number }
const dist = (xs: number[]): Dist => ({ n: xs.length, p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)) });

function procStat(pid: number): { cpuMs: number; rssMb: number; peakMb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime (fields 14, 15)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { cpuMs, rssMb: round(kb('VmRSS') / 1024), peakMb: round(kb('VmHWM') / 1024) };
  } catch {
    return { cpuMs: NaN, rssMb: NaN, peakMb: NaN };
  }
}

/** One language server over stdio, with the client side this benchmark needs. */
class Server {
  private waiters: { uri: string; version: number; resolve: () => void }[] = [];
  private published = new Map<string, number>();
  settings: Record<string, unknown> = {};
  stderr = '';
  private constructor(readonly name: string, readonly proc: ChildProcess, readonly conn: ProtocolConnection, readonly languageId: string) {}

  static start(name: string, cmd: string, args: string[], languageId: string): Server {
    const spawnedAt = performance.now();
    const proc = spawn(cmd, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const s = new Server(name, proc, conn, languageId);
    s.spawnedAt = spawnedAt;
    proc.stderr!.on('data', (d: Buffer) => { s.stderr = (s.stderr + d.toString()).slice(-4000); });
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      const v = p.version ?? -1;
      if (p.diagnostics.length > 0 && !s.reportedDiagnostics) {
        s.reportedDiagnostics = true;
        console.log(`  note: ${name} published ${p.diagnostics.length} diagnostics, e.g. ${p.diagnostics[0].message}`);
      }
      s.published.set(p.uri, v);
      s.lastPublish.set(`${p.uri} ${v}`, performance.now());
      s.waiters = s.waiters.filter((w) => {
        if (w.uri !== p.uri || (v !== -1 && v < w.version)) return true;
        w.resolve();
        return false;
      });
    });
    conn.onNotification('window/logMessage', () => undefined);
    conn.onNotification('window/showMessage', () => undefined);
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((it) => (it.section === 'layout' ? s.settings : null)));
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
    for (const m of ['workspace/inlayHint/refresh', 'workspace/codeLens/refresh', 'workspace/semanticTokens/refresh']) conn.onRequest(m, () => null);
    conn.listen();
    return s;
  }
  reportedDiagnostics = false;
  /** when the process was spawned (`initialize` is timed from there: the process's start-up is part of it) */
  spawnedAt = 0;
  /** when diagnostics for `uri version` were last published */
  readonly lastPublish = new Map<string, number>();
  /** the server takes whole texts on didChange (mlir-lsp-server does), not ranges */
  fullSync = false;
  /** the server has semantic tokens (its `initialize` result says so) */
  semanticTokens = false;

  /** sends `initialize`; resolves with the time from the process's spawn to the result */
  async initialize(folder: string): Promise<number> {
    const t0 = this.spawnedAt;
    const r: { capabilities: { textDocumentSync?: number | { change?: number }; semanticTokensProvider?: unknown } } = await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(folder).href,
      workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'ws' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          // what vscode-languageclient 9 (VS Code) declares for completion lists: item defaults (an
          // edit range sent once for the list, not per item), and detail and documentation resolved
          // lazily (completionItem/resolve for the item in focus)
          completion: { completionItem: { snippetSupport: true, resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } }, completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] } },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { versionSupport: true },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          semanticTokens: { requests: { full: true }, tokenTypes: [], tokenModifiers: [], formats: ['relative'] },
        },
      },
    });
    const ms = performance.now() - t0;
    const sync = r.capabilities.textDocumentSync;
    this.fullSync = (typeof sync === 'number' ? sync : sync?.change) === 1;
    this.semanticTokens = r.capabilities.semanticTokensProvider !== undefined;
    this.conn.sendNotification('initialized', {});
    return ms;
  }

  /** resolves when diagnostics for `uri` at `version` (or later) are published */
  diagnostics(uri: string, version: number, timeoutMs = 120_000): Promise<void> {
    const have = this.published.get(uri);
    if (have !== undefined && have >= version) return Promise.resolve();
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`${this.name}: no diagnostics for v${version} in ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      this.waiters.push({ uri, version, resolve: () => { clearTimeout(timer); res(); } });
    });
  }

  open(uri: string, text: string): void {
    this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: this.languageId, version: 1, text } });
  }
  change(uri: string, version: number, range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string, whole: string): void {
    const change = this.fullSync ? { text: whole } : { range, text };
    this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
  }
  request<R>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }
  configure(settings: Record<string, unknown>): void {
    this.settings = settings;
    this.conn.sendNotification('workspace/didChangeConfiguration', { settings: { layout: settings } });
  }
  stat() {
    return procStat(this.proc.pid!);
  }
  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      this.conn.sendNotification('exit');
    } catch { /* gone */ }
    await new Promise<void>((r) => {
      if (this.proc.exitCode !== null) return r();
      const t = setTimeout(() => { this.proc.kill(); r(); }, 2000);
      this.proc.on('exit', () => { clearTimeout(t); r(); });
    });
    this.conn.dispose();
  }
}

/** A document held by the client: its text, version and the spots the bench uses. */
class Doc {
  version = 1;
  /** `afterEditSpots`: the spots of the hovers right after an edit, `hoverSpots` (the later rows' spots) first */
  constructor(readonly server: Server, readonly uri: string, public text: string, readonly editSpots: number[], readonly hoverSpots: number[], readonly completionSpot: number, readonly afterEditSpots: number[]) {}
  pos(offset: number) {
    return TextDocument.create('x:', 'x', 0, this.text).positionAt(offset);
  }
  /** flips a digit of a constant (8 <-> 4): the file stays free of diagnostics */
  edit(i: number): number {
    const at = this.editSpots[(i * 7) % this.editSpots.length];
    const digit = this.text[at] === '8' ? '4' : '8';
    const p = this.pos(at);
    this.version++;
    this.text = this.text.slice(0, at) + digit + this.text.slice(at + 1);
    this.server.change(this.uri, this.version, { start: p, end: { line: p.line, character: p.character + 1 } }, digit, this.text);
    return this.version;
  }
  /** types a space before a constant, or deletes the space typed last: every later offset moves */
  type(i: number): number {
    const p0 = this.typed;
    this.version++;
    if (p0 !== undefined) {
      const p = this.pos(p0);
      this.typed = undefined;
      this.text = this.text.slice(0, p0) + this.text.slice(p0 + 1);
      this.server.change(this.uri, this.version, { start: p, end: { line: p.line, character: p.character + 1 } }, '', this.text);
    } else {
      // before the constant's first digit (MLIR's spot is the last digit of `128`: a space there made
      // its file invalid every other keystroke, `12 8`, where ours stayed valid)
      let at = this.editSpots[(i * 7) % this.editSpots.length];
      while (at > 0 && this.text.charCodeAt(at - 1) >= 48 && this.text.charCodeAt(at - 1) <= 57) at--;
      const p = this.pos(at);
      this.typed = at;
      this.text = this.text.slice(0, at) + ' ' + this.text.slice(at);
      this.server.change(this.uri, this.version, { start: p, end: p }, ' ', this.text);
    }
    return this.version;
  }
  private typed?: number;
  /** hover at a position computed beforehand: converting an offset scans the whole text, client-side work the timings leave out */
  hover(position: { line: number; character: number }): Promise<unknown> {
    return this.server.request('textDocument/hover', { textDocument: { uri: this.uri }, position });
  }
}

function spotsOf(text: string, edit: RegExp, hover: RegExp, completion: RegExp): { edits: number[]; hovers: number[]; completion: number } {
  const edits: number[] = [];
  const hovers: number[] = [];
  let completionAt = -1;
  let off = 0;
  for (const l of text.split('\n')) {
    const e = edit.exec(l);
    if (e) edits.push(off + e.index + e[0].length - 1);
    const h = hover.exec(l);
    if (h) hovers.push(off + h.index + h[0].length - 1);
    const c = completion.exec(l);
    if (c && completionAt < 0 && off > text.length / 2) completionAt = off + c.index + c[0].length;
    off += l.length + 1;
  }
  return { edits, hovers, completion: completionAt };
}

/** `count` spots spread over the whole list */
function spread(xs: number[], count: number): number[] {
  if (xs.length <= count) return xs;
  return Array.from({ length: count }, (_, i) => xs[Math.floor((i * (xs.length - 1)) / (count - 1))]);
}

interface Side {
  initializeMs: number;
  openMs: number;
  openCompleteMs: number;
  /** didOpen sent with `initialized` (as an editor does), a fresh process: -> first diagnostics */
  openAtOnceMs: number;
  /** didOpen with an editor's requests, 200 ms after `initialized`, a fresh process: -> first diagnostics, -> the last request answered */
  openWithRequestsMs: number;
  openRequestsAnsweredMs: number;
  /** semantic tokens right after an edit's diagnostics (servers that have them) */
  semanticTokensAfterEdit?: Dist;
  semanticTokensDeltaAfterEdit?: Dist;
  diagnosticsAfterEdit: Dist;
  diagnosticsAfterEditDefault: Dist;
  diagnosticsAfterTyping: Dist;
  cpuPerEditMs: number;
  cpuPerTypingMs: number;
  hoverAfterEdit: Dist;
  hoverFirst: Dist;
  hoverRepeated: Dist;
  completion: Dist;
  rssMb: number;
  idleRssMb: number;
  peakRssMb: number;
}

async function measure(lines: number, mlirAvailable: boolean): Promise<{ lines: number; ours: Side; mlir?: Side }> {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'layout-vs-mlir-')));
  const lt = layoutFile(lines);
  const mt = mlirFile(lines);
  const ls = spotsOf(lt, /^const BM\d+ = 128, BN\d+ = 128, BK\d+ = 32, GM\d+ = 8/, /^\s+offset_aptrs = A\d+/, /^layout A\d+ = OrderBy\(/);
  const ms = spotsOf(mt, /^\s+%bm = arith\.constant 128/, /^\s+%t = arith\.mulf %s/, /^\s+%s = arith\.addf %/);
  const startOurs = () => Server.start('ours', process.execPath, [...(process.env.LAYOUT_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), join(ROOT, 'dist/server.js'), '--stdio'], 'layout');
  // opens, each in a fresh process of each server (one after the other, before the servers of the
  // run start): didOpen sent `delayMs` after `initialized` (0: as an editor opens its documents;
  // 200: once our worker has warmed up) -> first diagnostics, p50 of OPEN_RUNS processes (one open
  // per process varied 38-58 ms at 10,000 lines between runs)
  const openOnce = async (s: Server, uri: string, text: string, delayMs: number): Promise<number> => {
    try {
      await s.initialize(folder);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const t0 = performance.now();
      const wait = s.diagnostics(uri, 1);
      s.open(uri, text);
      await wait;
      return performance.now() - t0;
    } finally {
      await s.stop();
    }
  };
  /** didOpen and, at once, the requests VS Code sends with it: -> first diagnostics, -> all answered */
  const openWithRequests = async (s: Server, uri: string, text: string): Promise<[number, number]> => {
    try {
      await s.initialize(folder);
      await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      const wait = s.diagnostics(uri, 1).then(() => performance.now() - t0);
      s.open(uri, text);
      const asked = EDITOR_OPEN_REQUESTS.map((m) => s.request(m, { textDocument: { uri } }).catch(() => undefined));
      const first = await wait;
      await Promise.all(asked);
      return [first, performance.now() - t0];
    } finally {
      await s.stop();
    }
  };
  const opensWithRequests = async () => {
    const o: [number, number][] = [];
    const m: [number, number][] = [];
    for (let i = 0; i < OPEN_RUNS; i++) {
      const fresh = startOurs();
      fresh.settings = { diagnostics: { debounceMs: 0 } };
      o.push(await openWithRequests(fresh, pathToFileURL(join(folder, 'bench.layout')).href, lt));
      if (mlirAvailable) m.push(await openWithRequests(Server.start('mlir', MLIR_LSP, [], 'mlir'), pathToFileURL(join(folder, 'bench.mlir')).href, mt));
    }
    const p50 = (xs: [number, number][], k: 0 | 1) => round(percentile(xs.map((x) => x[k]), 50));
    return { ours: [p50(o, 0), p50(o, 1)], mlir: m.length ? [p50(m, 0), p50(m, 1)] : undefined };
  };
  const opens = async (delayMs: number) => {
    const o: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < OPEN_RUNS; i++) {
      const fresh = startOurs();
      fresh.settings = { diagnostics: { debounceMs: 0 } };
      o.push(await openOnce(fresh, pathToFileURL(join(folder, 'bench.layout')).href, lt, delayMs));
      if (mlirAvailable) m.push(await openOnce(Server.start('mlir', MLIR_LSP, [], 'mlir'), pathToFileURL(join(folder, 'bench.mlir')).href, mt, delayMs));
    }
    return { ours: round(percentile(o, 50)), mlir: m.length ? round(percentile(m, 50)) : undefined };
  };
  const atOnce = await opens(0);
  const afterWarmUp = await opens(200);
  const withRequests = await opensWithRequests();
  const ours = startOurs();
  ours.settings = { diagnostics: { debounceMs: 0 } };
  const mlir = mlirAvailable ? Server.start('mlir', MLIR_LSP, [], 'mlir') : undefined;
  const sides = [ours, ...(mlir ? [mlir] : [])];
  const docs = new Map<Server, Doc>();
  const afterEdit = (hovers: number[]) => [...new Set([...spread(hovers, HOVER_SPOTS), ...spread(hovers, AFTER_EDIT_HOVERS)])].slice(0, AFTER_EDIT_HOVERS);
  docs.set(ours, new Doc(ours, pathToFileURL(join(folder, 'bench.layout')).href, lt, ls.edits, spread(ls.hovers, HOVER_SPOTS), ls.completion, afterEdit(ls.hovers)));
  if (mlir) docs.set(mlir, new Doc(mlir, pathToFileURL(join(folder, 'bench.mlir')).href, mt, ms.edits, spread(ms.hovers, HOVER_SPOTS), ms.completion, afterEdit(ms.hovers)));
  const out = new Map<Server, Partial<Side>>(sides.map((s) => [s, {}]));
  const rec = (s: Server) => out.get(s)!;
  try {
    // both sent at once, right after both processes were spawned, as a client sends it: each timed
    // from its own spawn (timing the second from when the first had answered left its start-up out)
    const init = await Promise.all(sides.map((s) => s.initialize(folder)));
    sides.forEach((s, k) => { rec(s).initializeMs = round(init[k]); });
    rec(ours).openAtOnceMs = atOnce.ours;
    rec(ours).openMs = afterWarmUp.ours;
    if (mlir && atOnce.mlir !== undefined) rec(mlir).openAtOnceMs = atOnce.mlir;
    if (mlir && afterWarmUp.mlir !== undefined) rec(mlir).openMs = afterWarmUp.mlir;
    [rec(ours).openWithRequestsMs, rec(ours).openRequestsAnsweredMs] = withRequests.ours;
    if (mlir && withRequests.mlir) [rec(mlir).openWithRequestsMs, rec(mlir).openRequestsAnsweredMs] = withRequests.mlir;
    await new Promise((r) => setTimeout(r, 200)); // our first settings pull
    for (const s of sides) {
      const d = docs.get(s)!;
      const t0 = performance.now();
      const wait = s.diagnostics(d.uri, 1);
      s.open(d.uri, d.text);
      await wait;
      // the complete set: the last publish of version 1 once the server is idle (at most 60 s)
      let cpu = s.stat().cpuMs;
      for (let idle = 0, waited = 0; idle < 3 && waited < 60_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        const now = s.stat().cpuMs;
        idle = now === cpu ? idle + 1 : 0;
        cpu = now;
      }
      rec(s).openCompleteMs = round(s.lastPublish.get(`${d.uri} 1`)! - t0);
    }

    // didChange -> publishDiagnostics, interleaved; CPU per edit
    const editLoop = async (n: number, warm: number, typing = false) => {
      const lat = new Map<Server, number[]>(sides.map((s) => [s, []]));
      const cpu = new Map<Server, number>(sides.map((s) => [s, 0]));
      for (let i = 0; i < n + warm; i++) {
        for (const s of sides) {
          const d = docs.get(s)!;
          const c0 = s.stat().cpuMs;
          const t0 = performance.now();
          const v = typing ? d.type(i) : d.edit(i);
          await s.diagnostics(d.uri, v);
          const ms = performance.now() - t0;
          if (i >= warm) {
            lat.get(s)!.push(ms);
            cpu.set(s, cpu.get(s)! + s.stat().cpuMs - c0);
          }
        }
      }
      return { lat, cpu };
    };
    const n = edits(lines);
    const zero = await editLoop(n, WARMUP_EDITS);
    for (const s of sides) {
      rec(s).diagnosticsAfterEdit = dist(zero.lat.get(s)!);
      rec(s).cpuPerEditMs = round(zero.cpu.get(s)! / n);
    }
    // typing: a space inserted, then deleted (an even count: the text ends as it was)
    const typing = await editLoop(2 * Math.ceil(n / 2), WARMUP_EDITS, true);
    for (const s of sides) {
      rec(s).diagnosticsAfterTyping = dist(typing.lat.get(s)!);
      rec(s).cpuPerTypingMs = round(typing.cpu.get(s)! / (2 * Math.ceil(n / 2)));
    }

    // hover as the first request on a new version (the edit's analysis may still run)
    const afterEdit = new Map<Server, number[]>(sides.map((s) => [s, []]));
    const afterEditCount = Math.min(...sides.map((s) => docs.get(s)!.afterEditSpots.length));
    for (let i = 0; i < afterEditCount; i++) {
      for (const s of sides) {
        const d = docs.get(s)!;
        const v = d.edit(i + 1);
        const p = d.pos(d.afterEditSpots[i]);
        const t0 = performance.now();
        const h = await d.hover(p);
        afterEdit.get(s)!.push(performance.now() - t0);
        if (!h) throw new Error(`${s.name}: no hover after an edit`);
        await s.diagnostics(d.uri, v);
      }
    }
    for (const s of sides) rec(s).hoverAfterEdit = dist(afterEdit.get(s)!);

    // hover the first time at a spot on a settled version, then repeated at the same spots
    await new Promise((r) => setTimeout(r, 50));
    const first = new Map<Server, number[]>(sides.map((s) => [s, []]));
    const again = new Map<Server, number[]>(sides.map((s) => [s, []]));
    for (const s of sides) docs.get(s)!.edit(3); // a fresh version: nothing hovered on it yet
    for (const s of sides) await s.diagnostics(docs.get(s)!.uri, docs.get(s)!.version);
    for (let i = 0; i < HOVER_SPOTS; i++) {
      for (const s of sides) {
        const d = docs.get(s)!;
        const p = d.pos(d.hoverSpots[(i * 5) % d.hoverSpots.length]);
        const t0 = performance.now();
        await d.hover(p);
        first.get(s)!.push(performance.now() - t0);
      }
    }
    for (let r = 0; r < 4; r++) {
      for (let i = 0; i < HOVER_SPOTS; i++) {
        for (const s of sides) {
          const d = docs.get(s)!;
          const p = d.pos(d.hoverSpots[i]);
          const t0 = performance.now();
          await d.hover(p);
          again.get(s)!.push(performance.now() - t0);
        }
      }
    }
    for (const s of sides) {
      rec(s).hoverFirst = dist(first.get(s)!);
      rec(s).hoverRepeated = dist(again.get(s)!);
    }

    // semantic tokens, as VS Code asks for them after each change (once the edit's diagnostics are in)
    for (const s of sides) {
      if (!s.semanticTokens) continue;
      const d = docs.get(s)!;
      const lat: number[] = [];
      for (let i = 0; i < SEMANTIC_TOKEN_EDITS + 2; i++) {
        const v = d.edit(i + 5);
        await s.diagnostics(d.uri, v);
        const t0 = performance.now();
        await s.request('textDocument/semanticTokens/full', { textDocument: { uri: d.uri } });
        if (i >= 2) lat.push(performance.now() - t0);
      }
      rec(s).semanticTokensAfterEdit = dist(lat);
      // as VS Code asks once it holds a result: the edits since the last one (full/delta)
      let held = (await s.request<{ resultId?: string }>('textDocument/semanticTokens/full', { textDocument: { uri: d.uri } })).resultId;
      const deltaLat: number[] = [];
      for (let i = 0; i < SEMANTIC_TOKEN_EDITS + 2; i++) {
        const v = d.edit(i + 5);
        await s.diagnostics(d.uri, v);
        const t0 = performance.now();
        const r = await s.request<{ resultId?: string; edits?: unknown[] }>('textDocument/semanticTokens/full/delta', { textDocument: { uri: d.uri }, previousResultId: held });
        if (i >= 2) deltaLat.push(performance.now() - t0);
        if (!r.edits) throw new Error(`${s.name}: a full result where a delta was asked for`);
        held = r.resultId;
      }
      rec(s).semanticTokensDeltaAfterEdit = dist(deltaLat);
    }

    // completion in the middle of the file
    const comp = new Map<Server, number[]>(sides.map((s) => [s, []]));
    for (let i = 0; i < 24; i++) {
      for (const s of sides) {
        const d = docs.get(s)!;
        const position = d.pos(d.completionSpot);
        const t0 = performance.now();
        const r = await s.request<{ items: unknown[] } | unknown[] | null>('textDocument/completion', { textDocument: { uri: d.uri }, position });
        const ms = performance.now() - t0;
        const count = Array.isArray(r) ? r.length : (r?.items.length ?? 0);
        if (count === 0) throw new Error(`${s.name}: no completion`);
        if (i >= 4) comp.get(s)!.push(ms);
      }
    }
    for (const s of sides) rec(s).completion = dist(comp.get(s)!);

    // the default settings: what a user waits after a keystroke
    ours.configure({});
    await new Promise((r) => setTimeout(r, 300));
    await ours.diagnostics(docs.get(ours)!.uri, docs.get(ours)!.version);
    const dflt = await editLoop(Math.max(6, Math.floor(n / 2)), 1);
    for (const s of sides) rec(s).diagnosticsAfterEditDefault = dist(dflt.lat.get(s)!);

    for (const s of sides) {
      const st = s.stat();
      rec(s).rssMb = st.rssMb;
    }
    // idle: our server collects its heaps once idle (lsp/heap.ts: 1.5 s on the main thread, 1 s in the worker)
    await new Promise((r) => setTimeout(r, IDLE_RSS_MS));
    for (const s of sides) {
      const st = s.stat();
      rec(s).idleRssMb = st.rssMb;
      rec(s).peakRssMb = st.peakMb;
    }
  } finally {
    for (const s of sides) await s.stop();
  }
  return { lines, ours: rec(ours) as Side, ...(mlir ? { mlir: rec(mlir) as Side } : {}) };
}

function ratio(a: number, b: number | undefined): string {
  return b === undefined || !Number.isFinite(b) || b === 0 ? '–' : `${(a / b).toFixed(1)}x`;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/server.js'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const mlirAvailable = spawnSync(MLIR_LSP, ['--version'], { encoding: 'utf8' }).status === 0;
  if (!mlirAvailable) console.log(`(${MLIR_LSP} not found: only our numbers)`);
  const started = performance.now();
  const runs = [];
  for (const lines of LINES) {
    console.log(`== ${lines} lines`);
    runs.push(await measure(lines, mlirAvailable));
  }
  const rows: [string, (s: Side) => number | undefined][] = [
    ['didChange → publishDiagnostics p50, debounce 0 (ms)', (s) => s.diagnosticsAfterEdit.p50],
    ['didChange → publishDiagnostics p95, debounce 0 (ms)', (s) => s.diagnosticsAfterEdit.p95],
    ['didChange → publishDiagnostics p50, default settings (ms)', (s) => s.diagnosticsAfterEditDefault.p50],
    ['didChange → publishDiagnostics p95, default settings (ms)', (s) => s.diagnosticsAfterEditDefault.p95],
    ['server CPU per edit (ms)', (s) => s.cpuPerEditMs],
    ['typing (length changes) → publishDiagnostics p50 (ms)', (s) => s.diagnosticsAfterTyping.p50],
    ['typing (length changes) → publishDiagnostics p95 (ms)', (s) => s.diagnosticsAfterTyping.p95],
    ['server CPU per typed character (ms)', (s) => s.cpuPerTypingMs],
    ['hover right after an edit p50 (ms)', (s) => s.hoverAfterEdit.p50],
    ['hover right after an edit p95 (ms)', (s) => s.hoverAfterEdit.p95],
    ['hover right after an edit: samples (each a first hover at its spot)', (s) => s.hoverAfterEdit.n],
    ['hover first time p50 (ms)', (s) => s.hoverFirst.p50],
    ['hover first time p95 (ms)', (s) => s.hoverFirst.p95],
    ['hover repeated p50 (ms)', (s) => s.hoverRepeated.p50],
    ['hover repeated p95 (ms)', (s) => s.hoverRepeated.p95],
    ['completion p50 (ms)', (s) => s.completion.p50],
    ['completion p95 (ms)', (s) => s.completion.p95],
    ['semantic tokens (full) right after an edit p50 (ms)', (s) => s.semanticTokensAfterEdit?.p50],
    ['semantic tokens (full) right after an edit p95 (ms)', (s) => s.semanticTokensAfterEdit?.p95],
    ['semantic tokens (full/delta, as VS Code asks) right after an edit p50 (ms)', (s) => s.semanticTokensDeltaAfterEdit?.p50],
    ['semantic tokens (full/delta) right after an edit p95 (ms)', (s) => s.semanticTokensDeltaAfterEdit?.p95],
    [`didOpen 200 ms after initialize → first diagnostics, p50 of ${OPEN_RUNS} fresh processes (ms)`, (s) => s.openMs],
    [`didOpen right after initialize → first diagnostics, p50 of ${OPEN_RUNS} fresh processes (ms)`, (s) => s.openAtOnceMs],
    [`didOpen 200 ms after initialize with an editor's requests (symbols, folding, semantic tokens) → first diagnostics, p50 of ${OPEN_RUNS} (ms)`, (s) => s.openWithRequestsMs],
    [`… → the last of those requests answered, p50 of ${OPEN_RUNS} (ms)`, (s) => s.openRequestsAnsweredMs],
    ['didOpen → complete diagnostics (ms)', (s) => s.openCompleteMs],
    ['spawn → initialize result (ms)', (s) => s.initializeMs],
    ['RSS after the run (MB)', (s) => s.rssMb],
    [`RSS ${IDLE_RSS_MS / 1000} s after the run, idle (MB)`, (s) => s.idleRssMb],
    ['peak RSS (MB)', (s) => s.peakRssMb],
  ];
  let md = `| metric | ${runs.map((r) => `${r.lines.toLocaleString('en')} lines: ours / MLIR / ratio`).join(' | ')} |\n|---|${runs.map(() => '---|').join('')}\n`;
  for (const [name, f] of rows) {
    const cell = (v: number | undefined) => (v === undefined ? '–' : round(v));
    md += `| ${name} | ${runs.map((r) => `${cell(f(r.ours))} / ${r.mlir ? cell(f(r.mlir)) : '–'} / ${ratio(f(r.ours) ?? NaN, r.mlir && f(r.mlir))}`).join(' | ')} |\n`;
  }
  console.log('\n' + md);
  const wall = round((performance.now() - started) / 1000);
  console.log(`(${wall} s; ours = node dist/server.js --stdio, MLIR = ${MLIR_LSP}; CPU from /proc in ${TICK_MS} ms ticks)`);
  const result = {
    bench: 'lsp-vs-mlir',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    loadAverage1m: round(loadavg()[0]),
    mlirServer: mlirAvailable ? MLIR_LSP : null,
    wallSeconds: wall,
    runs,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/lsp-vs-mlir.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(ROOT, 'bench/results/lsp-vs-mlir.md'), `# Language server latency: ours vs ${MLIR_LSP}\n\n${result.date}, ${result.cpu}, ${result.cores} cores, load ${result.loadAverage1m}\n\n${md}`);
  updateReadme(runs);
}

function updateReadme(runs: { lines: number; ours: Side; mlir?: Side }[]): void {
  const path = join(ROOT, 'bench/results/README.md');
  if (!existsSync(path)) return;
  const cells = runs.map((r) => `${r.lines}: edit p50 ${r.ours.diagnosticsAfterEdit.p50} vs ${r.mlir?.diagnosticsAfterEdit.p50 ?? '–'} ms, open ${r.ours.openMs} (complete ${r.ours.openCompleteMs}) vs ${r.mlir?.openMs ?? '–'} ms`).join('; ');
  const row = `| lsp-vs-mlir | ${new Date().toISOString().slice(0, 10)} | ours vs mlir-lsp-server-22 (debounce 0): ${cells} | lsp-vs-mlir.json, lsp-vs-mlir.md |`;
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => !l.startsWith('| lsp-vs-mlir |'));
  writeFileSync(path, lines.join('\n').replace(/\n*$/, '\n') + row + '\n');
}

await main();
