// Runs the real-VS-Code suite (test/e2e/suite, bundled to dist/test/e2e-suite.js):
// starts code-server's bundled VS Code server on 127.0.0.1, opens a copy of examples/ (plus
// test/e2e/workspace/) in Debian's headless chromium through playwright-core, passes the extension and the
// suite in the workbench URL's `payload`, and waits for the exit code the workbench reports.
//
//   node test/e2e/run.mjs [--screenshots] [--keep] [--require] [--verbose] [--vsix]
//     --screenshots  save docs/images/<name>.png when the suite asks (diagnostic-hover, layout-picture)
//     --keep         keep the temporary folder (logs, workspace) and print its path
//     --require      exit 1 (instead of printing SKIP and exiting 0) when code-server, chromium or
//                    playwright-core is missing; implied when the environment has CI set (CI=true in .ci/run)
//     --verbose      print the workbench's log as it comes (otherwise only on failure, and in <tmp>/workbench.log)
//     --vsix         test the packaged extension (dist/layout-lang.vsix from `npm run package`, unpacked with
//                    python3) instead of this checkout
//   env: LAYOUT_E2E_HOME (where test/e2e/install-code-server.sh installed code-server), LAYOUT_CHROMIUM
// Every test runs strictly: a server feature that is missing fails its test (nothing is skipped).
// A failed test leaves a screenshot in test/out/e2e-failure-<n>.png (taken when it failed); a run that
// ends without an exit code, test/out/e2e-failure.png.
//
// The suite talks to this driver through its log: `__driver__ {"id", "shot"?, "dir"?, "poke"?, "cell"?}` asks
// for a screenshot (dir "docs": docs/images/<shot>.png, only with --screenshots; dir "out": test/out/<shot>.png,
// always) and, with "poke", to use the layout picture webview like a person (read the cells, hover cell
// number "cell", toggle the order); the driver then writes what it saw to <tmp>/sync/<id>.done, which the
// suite waits for.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = new Set(process.argv.slice(2));
const CODE_SERVER_VERSION = '4.100.3';
const e2eHome = process.env.LAYOUT_E2E_HOME || join(homedir(), '.cache', 'layout-lang-e2e');
const serverMain = join(e2eHome, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
const chromiumPath = process.env.LAYOUT_CHROMIUM || '/usr/bin/chromium';
const RUN_TIMEOUT_MS = 300_000;

function missing() {
  const m = [];
  if (!existsSync(serverMain)) m.push(`code-server ${CODE_SERVER_VERSION} (${serverMain}; run test/e2e/install-code-server.sh)`);
  if (!existsSync(chromiumPath)) m.push(`chromium (${chromiumPath}; apt-get install chromium)`);
  let pw = true;
  try {
    if (spawnSync(process.execPath, ['-e', 'require.resolve("playwright-core")'], { cwd: repo, stdio: 'ignore' }).status !== 0) pw = false;
  } catch {
    pw = false;
  }
  if (!pw) m.push('playwright-core (npm ci)');
  return m;
}

/** In the picture webview (a frame inside the workbench's webview iframe): the frame that has `#mode`. */
async function pictureFrame(page) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const f of page.frames()) {
      if (await f.$('#mode').catch(() => null)) return f;
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Reads the drawn grid: per row (top to bottom), the cells' labels left to right joined by spaces, and their
 * fill colours as letters (A = the first colour met, B = the next new one, ...).
 */
function readGrid(frame) {
  return frame.$$eval('#grid rect[data-i]', (rects) => {
    const cells = rects.map((r) => ({
      x: Number(r.getAttribute('x')),
      y: Number(r.getAttribute('y')),
      fill: r.getAttribute('fill') ?? '',
      label: r.nextElementSibling?.tagName.toLowerCase() === 'text' ? r.nextElementSibling.textContent ?? '' : '',
    }));
    const ys = [...new Set(cells.map((c) => c.y))].sort((a, b) => a - b);
    const letters = new Map();
    const letter = (f) => {
      if (!letters.has(f)) letters.set(f, String.fromCharCode(65 + letters.size));
      return letters.get(f);
    };
    const rows = ys.map((y) => cells.filter((c) => c.y === y).sort((a, b) => a.x - b.x));
    return { labels: rows.map((r) => r.map((c) => c.label).join(' ')), fills: rows.map((r) => r.map((c) => letter(c.fill)).join('')) };
  });
}

/**
 * Uses the layout picture webview: reads the grid, hovers the cell `index` (of `cells`) and reads the tooltip,
 * calls `beforeToggle` (the screenshot, with the tooltip showing), then clicks "Show physical order" and reads
 * the caption.
 */
async function pokeWebview(page, index, beforeToggle) {
  const frame = await pictureFrame(page);
  if (!frame) return { error: 'no webview frame with #mode' };
  const cell = await frame.waitForSelector(`#grid rect[data-i="${index}"]`, { timeout: 5000 });
  const grid = await readGrid(frame);
  await cell.hover();
  await frame.waitForSelector('#tip:not([hidden])', { timeout: 5000 });
  const tip = await frame.$eval('#tip', (e) => e.textContent);
  await beforeToggle();
  await frame.click('#mode');
  await frame.waitForFunction(() => document.querySelector('#caption')?.textContent?.includes('physical order'), null, { timeout: 5000 });
  const caption = await frame.$eval('#caption', (e) => e.textContent);
  const button = await frame.$eval('#mode', (e) => e.textContent);
  return { tip, caption, button, labels: grid.labels, fills: grid.fills };
}

/**
 * Uses the picture webview step by step (`steps`: `{ fill, value }` types into an input, `{ select, value }`
 * picks an option, `{ click }` clicks, `{ hover }` hovers a cell `#grid rect[data-i="N"]`, `{ wait }` waits
 * until the caption contains the text), then reports what it shows: caption, legend, problems, the SVG's
 * size, the grid, and the tooltip's box and the panel's size (when a cell was hovered). `shoot` runs last.
 */
async function actWebview(page, steps, shoot) {
  const frame = await pictureFrame(page);
  if (!frame) return { error: 'no webview frame with #mode' };
  const report = {};
  for (const s of steps) {
    if (s.fill) await frame.fill(s.fill, String(s.value), { timeout: 5000 });
    else if (s.select) await frame.selectOption(s.select, String(s.value), { timeout: 5000 });
    else if (s.click) await frame.click(s.click, { timeout: 5000 });
    else if (s.wait) await frame.waitForFunction((t) => document.querySelector('#caption')?.textContent?.includes(t), s.wait, { timeout: 10_000 });
    else if (Number.isInteger(s.hover)) {
      const cell = await frame.waitForSelector(`#grid rect[data-i="${s.hover}"]`, { timeout: 5000 });
      await cell.hover();
      await frame.waitForSelector('#tip:not([hidden])', { timeout: 5000 });
      report.tip = await frame.$eval('#tip', (e) => e.textContent);
      report.tipBox = await frame.$eval('#tip', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; });
      report.panel = await frame.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    }
  }
  report.caption = await frame.$eval('#caption', (e) => e.textContent);
  report.legend = await frame.$eval('#legend', (e) => e.textContent);
  report.problems = await frame.$eval('#problems', (e) => e.textContent);
  report.svg = await frame.$eval('#grid svg', (e) => ({ width: Number(e.getAttribute('width')), height: Number(e.getAttribute('height')), lines: e.querySelectorAll('line').length }));
  const grid = await readGrid(frame);
  report.labels = grid.labels;
  report.fills = grid.fills;
  await shoot();
  return report;
}

const ci = !!process.env.CI && !/^(0|false)$/i.test(process.env.CI);
const lacking = missing();
if (lacking.length > 0) {
  if (args.has('--require') || ci) {
    console.log(`FAIL real-VS-Code tests: missing ${lacking.join(', ')}${ci ? ' (required because CI is set)' : ''}`);
    process.exit(1);
  }
  console.log(`SKIP real-VS-Code tests: missing ${lacking.join(', ')}`);
  process.exit(0);
}

// the bundles the run needs
for (const f of ['dist/extension.js', 'dist/webview.js', 'dist/test/e2e-suite.js']) {
  if (!existsSync(join(repo, f))) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });
    if (b.status !== 0) process.exit(1);
    break;
  }
}

const { chromium } = await import('playwright-core');

// failure screenshots of an earlier run would mislead
const outDir = join(repo, 'test', 'out');
if (existsSync(outDir)) for (const f of readdirSync(outDir)) if (/^e2e-failure.*\.png$/.test(f)) rmSync(join(outDir, f), { force: true });

const work = mkdtempSync(join(tmpdir(), 'layout-e2e-'));
const ws = join(work, 'ws');
for (const d of ['server', 'user', 'ext', 'home', 'tmp', 'sync', ws]) mkdirSync(join(work, d), { recursive: true });
if (existsSync(join(repo, 'examples'))) cpSync(join(repo, 'examples'), ws, { recursive: true });
cpSync(join(repo, 'test', 'e2e', 'workspace'), ws, { recursive: true });
mkdirSync(join(ws, '.vscode'), { recursive: true });
writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'window.restoreWindows': 'none',
}, null, 2));

const freePort = () => new Promise((res, rej) => {
  const s = createServer();
  s.once('error', rej);
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => res(port));
  });
});
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const logFile = join(work, 'server.log');
const serverLog = [];
const workbenchLog = [];
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);

const server = spawn(process.execPath, [serverMain, '--host', '127.0.0.1', '--port', String(port),
  '--without-connection-token', '--accept-server-license-terms', '--enable-smoke-test-driver',
  '--disable-workspace-trust', '--telemetry-level', 'off',
  '--server-data-dir', join(work, 'server'), '--user-data-dir', join(work, 'user'), '--extensions-dir', join(work, 'ext')], {
  env: { ...process.env, HOME: join(work, 'home'), TMPDIR: join(work, 'tmp'), VSCODE_AGENT_FOLDER: join(work, 'server') },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.on('data', (d) => serverLog.push(String(d)));
server.stderr.on('data', (d) => serverLog.push(String(d)));

/** Carries out one `__driver__` request of the suite (see the top of this file). */
async function drive(page, json) {
  const req = JSON.parse(json);
  const id = String(req.id ?? '').replace(/[^\w-]/g, '');
  const shotName = typeof req.shot === 'string' ? req.shot.replace(/[^\w-]/g, '') : '';
  const shoot = async () => {
    if (!shotName) return;
    const out = req.dir === 'out' ? join(repo, 'test', 'out', `${shotName}.png`) : args.has('--screenshots') ? join(repo, 'docs', 'images', `${shotName}.png`) : undefined;
    if (!out) return;
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out });
    console.log(`e2e: screenshot ${out}`);
  };
  let report = {};
  if (req.poke) report = await pokeWebview(page, Number.isInteger(req.cell) ? req.cell : 0, shoot).catch((e) => ({ error: e.message }));
  else if (Array.isArray(req.steps)) report = await actWebview(page, req.steps, shoot).catch((e) => ({ error: e.message }));
  else if (typeof req.query === 'string') {
    // the text of the workbench's elements matching a selector (e.g. the Problems panel's rows)
    report = { texts: await page.$$eval(req.query, (els) => els.map((e) => e.textContent ?? '')).catch((e) => ({ error: e.message })) };
    await shoot();
  }
  else await shoot();
  if (id) writeFileSync(join(work, 'sync', `${id}.done`), JSON.stringify(report));
}

let browser;
let exitCode = 1;
const results = [];
try {
  // ready when it answers HTTP
  const ready = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the VS Code server exited with ${server.exitCode}`);
    try {
      const r = await fetch(`${base}/version`);
      if (r.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > ready) throw new Error('the VS Code server did not answer within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`e2e: VS Code server ${CODE_SERVER_VERSION} on ${base} after ${secs()} s`);

  const host = `127.0.0.1:${port}`;
  let extensionPath = repo;
  if (args.has('--vsix')) {
    const vsix = join(repo, 'dist', 'layout-lang.vsix');
    if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package`);
    const unzip = spawnSync('python3', ['-m', 'zipfile', '-e', vsix, join(work, 'vsix')], { encoding: 'utf8' });
    if (unzip.status !== 0) throw new Error(`unpacking ${vsix}: ${unzip.stderr}`);
    extensionPath = join(work, 'vsix', 'extension');
    console.log(`e2e: testing the packaged extension ${vsix}`);
  }
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${host}${extensionPath}`],
    ['extensionTestsPath', `vscode-remote://${host}${join(repo, 'dist', 'test', 'e2e-suite.js')}`],
  ];
  const url = `${base}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-quic', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  let done;
  const exited = new Promise((r) => (done = r));
  const shots = [];
  await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
    const text = (Array.isArray(logArgs) ? logArgs : [logArgs]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    const m = /^__driver__ (\{.*\})$/.exec(text.trim());
    if (m) {
      shots.push(drive(page, m[1]).catch((e) => console.log(`e2e: driver request ${m[1]} failed: ${e.message}`)));
      return;
    }
    if (/^(PASS|FAIL) /.test(text) || /^\d+ passed, \d+ failed/.test(text)) {
      results.push(text);
      if (!/^\d+ passed/.test(text)) console.log(`e2e: ${text}`);
    } else {
      workbenchLog.push(`[${type}] ${text}`);
      if (args.has('--verbose')) console.log(`[workbench:${type}] ${text}`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => done(code));
  await page.goto(url);
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), RUN_TIMEOUT_MS))]);
  await Promise.all(shots);
  exitCode = code === 0 ? 0 : 1;
  if (code !== 0) {
    const shot = join(repo, 'test', 'out', 'e2e-failure.png');
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot }).catch(() => {});
    console.log(`e2e: ${code === 'timeout' ? `no exit code after ${RUN_TIMEOUT_MS / 1000} s` : `exit code ${code}`}; screenshot ${shot}`);
  }
} catch (err) {
  console.log(`e2e: ${err.message}`);
  exitCode = 1;
} finally {
  if (browser) await browser.close().catch(() => {});
  server.kill('SIGTERM');
  writeFileSync(logFile, serverLog.join(''));
  writeFileSync(join(work, 'workbench.log'), workbenchLog.join('\n'));
  if (exitCode !== 0) {
    console.log('e2e: last lines of the workbench log:');
    console.log(workbenchLog.slice(-40).join('\n'));
    console.log('e2e: last lines of the VS Code server log:');
    console.log(serverLog.join('').split('\n').slice(-30).join('\n'));
  }
  if (args.has('--keep') || exitCode !== 0) console.log(`e2e: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(`e2e: finished in ${secs()} s`);
const summary = results.find((r) => /^\d+ passed, \d+ failed/.test(r));
console.log(`e2e: ${summary ?? (exitCode === 0 ? 'suite passed' : 'suite failed')}`);
process.exit(exitCode);
