// The Neovim set-up of docs/editors.md, in a real headless Neovim (Debian's `neovim`; .ci/run installs
// it): test/editors/nvim-init.lua is the documented init.lua (editors/vim on the runtimepath,
// editors/nvim/layout.lua's setup), test/editors/nvim-driver.lua opens a file and records what Neovim
// got from dist/server.js: the filetype, the Vim syntax groups, diagnostics, hover, definition and the
// buffer after Neovim's own LSP formatting. Skipped, with the reason, where nvim is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, root } from '../lsp/harness.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const version = nvim.status === 0 ? /NVIM v(\d+\.\d+\.\d+)/.exec(nvim.stdout)?.[1] : undefined;
const skip = version === undefined ? 'nvim is not installed (Debian: apt-get install neovim; .ci/run installs it)' : false;

const source = [
  'param M = 4, N = 8',
  'layout L = OrderBy(Row(M,N)).GroupBy([M, N])   # rows',
  'let s = M  *  N',
  'layout K = OrderBy(Rw(M, N))',
  '# TODO more',
  '',
].join('\n');

// (1-based line, 1-based column) -> the Vim syntax group there
const syntaxAt: [number, number, string][] = [
  [1, 1, 'layoutDeclaration'], // param
  [1, 7, ''], // M
  [1, 11, 'layoutNumber'], // 4
  [2, 1, 'layoutDeclaration'], // layout
  [2, 8, 'layoutDeclName'], // L
  [2, 12, 'layoutConstructor'], // OrderBy
  [2, 20, 'layoutConstructor'], // Row
  [2, 33, 'layoutConstructor'], // GroupBy
  [2, 49, 'layoutComment'], // # rows
  [3, 7, 'layoutOperator'], // =
  [3, 12, 'layoutOperator'], // *
  [4, 20, ''], // Rw: not a constructor
  [5, 3, 'layoutTodo'], // TODO
];

interface Seen {
  error?: string;
  nvim: string;
  api: string;
  filetype: string;
  attached: boolean;
  syntax: [number, number, string][];
  diagnostics: [number, number, number, number, number, string, string][];
  hover: unknown;
  definition: unknown;
  formatted: string;
}

test(`Neovim ${version ?? ''}: filetype, syntax, diagnostics, hover, definition and formatting from dist/server.js`, { skip, timeout: 90_000 }, () => {
  buildServer();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'layout-nvim-')));
  const file = join(dir, 'demo.layout');
  writeFileSync(file, source);
  for (const d of ['config', 'data', 'state', 'cache']) mkdirSync(join(dir, 'xdg', d), { recursive: true });
  const outPath = join(dir, 'seen.json');
  const r = spawnSync('nvim', ['--headless', '-u', join(root, 'test/editors/nvim-init.lua'), '-i', 'NONE', '-n', '-c', `luafile ${join(root, 'test/editors/nvim-driver.lua')}`], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 80_000,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(dir, 'xdg/config'),
      XDG_DATA_HOME: join(dir, 'xdg/data'),
      XDG_STATE_HOME: join(dir, 'xdg/state'),
      XDG_CACHE_HOME: join(dir, 'xdg/cache'),
      LAYOUT_REPO: root,
      LAYOUT_NODE: process.execPath,
      LAYOUT_FILE: file,
      LAYOUT_OUT: outPath,
      LAYOUT_DIAGNOSTICS: '2',
      LAYOUT_SYNTAX_AT: JSON.stringify(syntaxAt.map(([l, c]) => [l, c])),
    },
  });
  assert.ok(existsSync(outPath), `nvim wrote nothing (status ${r.status}, signal ${r.signal}): ${r.stderr}${r.stdout}`);
  const seen = JSON.parse(readFileSync(outPath, 'utf8')) as Seen;
  assert.equal(seen.error, undefined);
  assert.equal(seen.nvim, version);
  assert.equal(seen.api, version!.startsWith('0.7.') ? 'vim.lsp.start_client' : 'vim.lsp.start');
  assert.equal(seen.filetype, 'layout');
  assert.equal(seen.attached, true);
  assert.deepEqual(seen.syntax, syntaxAt);
  // [lnum, col, end_lnum, end_col] 0-based; severity 1 = error, 4 = hint
  assert.deepEqual(seen.diagnostics, [
    [2, 4, 2, 5, 4, 'unused/let', 'let s is never used'],
    [3, 19, 3, 21, 1, 'name/undefined', "unknown name 'Rw' (did you mean 'Row'?)"],
  ]);
  const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
  assert.deepEqual(seen.hover, {
    range: range(1, 23, 1, 24),
    contents: { kind: 'markdown', value: '**param** `M` = `4`\n\nstays symbolic in generated expressions\n\n4 uses in this file' },
  });
  assert.deepEqual(seen.definition, [{ uri: pathToFileURL(file).href, range: range(0, 6, 0, 7) }]);
  assert.equal(seen.formatted, [
    'param M = 4, N = 8',
    'layout L = OrderBy(Row(M, N)).GroupBy([M, N])  # rows',
    'let s = M * N',
    'layout K = OrderBy(Rw(M, N))',
    '# TODO more',
    '',
  ].join('\n'));
});
