// Runs the real-VS-Code suite (test/e2e/suite, bundled to dist/test/e2e-suite.js):
// starts code-server's bundled VS Code server on 127.0.0.1, opens a copy of examples/ (plus
// test/e2e/workspace/) in Debian's headless chromium through playwright-core, passes the extension and the
// suite in the workbench URL's `payload`, and waits for the exit code the workbench reports.
//
//   node test/e2e/run.mjs [--screenshots] [--keep] [--require]
//     --screenshots  save docs/images/<name>.png when the suite asks (diagnostic-hover, layout-picture)
//     --keep         keep the temporary folder (logs, workspace) and print its path
//     --require      exit 1 (instead of printing SKIP and exiting 0) when code-server or chromium is missing
//     --verbose      print the workbench's log as it comes (otherwise only on failure, and in <tmp>/workbench.log)
//   env: LAYOUT_E2E_HOME (where test/e2e/install-code-server.sh installed code-server), LAYOUT_CHROMIUM,
//        LAYOUT_E2E_STRICT=1 (a test skipped for a missing server feature fails instead)
// A failed run leaves a screenshot in test/out/e2e-failure.png.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    spawnSync(process.execPath, ['-e', 'require.resolve("playwright-core")'], { cwd: repo, stdio: 'ignore' }).status === 0 || (pw = false);
  } catch {
    pw = false;
  }
  if (!pw) m.push('playwright-core (npm ci)');
  return m;
}

/**
 * In the layout picture webview (a frame inside the workbench's webview iframe): hover the first cell and
 * read the tooltip, then click "Show physical order". Returns what it saw, for the suite to check.
 */
async function pokeWebview(page) {
  const deadline = Date.now() + 10_000;
  let frame;
  while (!frame && Date.now() < deadline) {
    for (const f of page.frames()) {
      if (await f.$('#mode').catch(() => null)) frame = f;
    }
    if (!frame) await new Promise((r) => setTimeout(r, 200));
  }
  if (!frame) return { error: 'no webview frame with #mode' };
  const cell = await frame.waitForSelector('#grid rect[data-i="5"]', { timeout: 5000 });
  await cell.hover();
  await frame.waitForSelector('#tip:not([hidden])', { timeout: 5000 });
  const tip = await frame.$eval('#tip', (e) => e.textContent);
  await frame.click('#mode');
  await frame.waitForFunction(() => document.querySelector('#caption')?.textContent?.includes('physical order'), null, { timeout: 5000 });
  const caption = await frame.$eval('#caption', (e) => e.textContent);
  const button = await frame.$eval('#mode', (e) => e.textContent);
  return { tip, caption, button };
}

const lacking = missing();
if (lacking.length > 0) {
  console.log(`SKIP real-VS-Code tests: missing ${lacking.join(', ')}`);
  process.exit(args.has('--require') ? 1 : 0);
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
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${host}${repo}`],
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
    const m = /^__screenshot__ ([\w-]+)$/.exec(text.trim());
    if (m) {
      shots.push((async () => {
        if (args.has('--screenshots')) {
          const out = join(repo, 'docs', 'images', `${m[1]}.png`);
          mkdirSync(dirname(out), { recursive: true });
          await page.screenshot({ path: out });
          console.log(`e2e: screenshot ${out}`);
        }
        // after the picture: use the webview like a person would, and tell the suite what it showed
        const report = m[1] === 'layout-picture' ? await pokeWebview(page).catch((e) => ({ error: e.message })) : {};
        writeFileSync(join(work, 'sync', `${m[1]}.done`), JSON.stringify(report));
      })().catch((e) => console.log(`e2e: screenshot ${m[1]} failed: ${e.message}`)));
      return;
    }
    if (/^(PASS|FAIL|SKIP) /.test(text) || /^\d+ passed, \d+ failed/.test(text)) {
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
