// The Emacs eglot set-up of docs/editors.md, in a real `emacs --batch` (Debian's `emacs-nox` 28.2 with
// `elpa-eglot` 1.9, or Emacs 29+ with eglot built in; .ci/run installs them): test/editors/emacs-init.el
// loads editors/emacs/layout-mode.el as the docs say, with `layout-language-server` on PATH (a shim for
// dist/server.js); test/editors/emacs-driver.el opens a file and records what eglot got: the major mode,
// flymake's diagnostics, hover (the server's answer and eglot's rendering), xref definitions and the buffer
// after `eglot-format-buffer'. Skipped, with the reason, where emacs or eglot is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { buildServer, root } from '../lsp/harness.js';

const emacs = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
const version = emacs.status === 0 ? /GNU Emacs (\d+\.\d+)/.exec(emacs.stdout)?.[1] : undefined;
const eglot =
  version === undefined
    ? false
    : spawnSync('emacs', ['--batch', '--eval', '(progn (package-initialize) (princ (if (locate-library "eglot") "yes" "no")))'], { encoding: 'utf8' }).stdout.endsWith('yes');
const skip =
  version === undefined
    ? 'emacs is not installed (Debian: apt-get install emacs-nox elpa-eglot; .ci/run installs them)'
    : !eglot
      ? `Emacs ${version} has no eglot (Debian 12: apt-get install elpa-eglot; Emacs 29+ has it built in)`
      : false;

const source = [
  'param M = 4, N = 8',
  'layout L = OrderBy(Row(M,N)).GroupBy([M, N])   # rows',
  'let s = M  *  N',
  'layout K = OrderBy(Rw(M, N))',
  '# TODO more',
  '',
].join('\n');

interface Seen {
  error?: string;
  mode: string;
  managed: boolean;
  flymake: boolean;
  diagnostics: [[number, number], [number, number], string, string][];
  hover: { contents: { kind: string; value: string }; range: unknown };
  markdownMode: boolean;
  hoverText: string;
  definitions: [string, [number, number]][];
  formatted: string;
}

test(`Emacs ${version ?? ''} eglot: layout-mode, flymake diagnostics, hover, definition and formatting from dist/server.js`, { skip, timeout: 90_000 }, () => {
  buildServer();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'layout-emacs-')));
  const file = join(dir, 'demo.layout');
  writeFileSync(file, source);
  mkdirSync(join(dir, 'bin'));
  const shim = join(dir, 'bin', 'layout-language-server');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${join(root, 'dist/server.js')}' "$@"\n`);
  chmodSync(shim, 0o755);
  const outPath = join(dir, 'seen.json');
  const r = spawnSync('emacs', ['--batch', '-l', join(root, 'test/editors/emacs-init.el'), '-l', join(root, 'test/editors/emacs-driver.el')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 80_000,
    env: {
      ...process.env,
      HOME: dir,
      PATH: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
      LAYOUT_REPO: root,
      LAYOUT_FILE: file,
      LAYOUT_OUT: outPath,
      LAYOUT_DIAGNOSTICS: '2',
    },
  });
  assert.ok(existsSync(outPath), `emacs wrote nothing (status ${r.status}, signal ${r.signal}): ${r.stderr}${r.stdout}`);
  const seen = JSON.parse(readFileSync(outPath, 'utf8')) as Seen;
  assert.equal(seen.error, undefined);
  assert.equal(seen.mode, 'layout-mode');
  assert.equal(seen.managed, true);
  assert.equal(seen.flymake, true);
  // [[line, column] start, [line, column] end] 0-based, flymake type, eglot's "SOURCE [CODE]: message"
  assert.deepEqual(seen.diagnostics, [
    [[2, 4], [2, 5], 'eglot-note', 'layout [unused/let]: let s is never used'],
    [[3, 19], [3, 21], 'eglot-error', "layout [name/undefined]: unknown name 'Rw' (did you mean 'Row'?)"],
  ]);
  const markdown = '**param** `M` = `4`\n\nstays symbolic in generated expressions\n\n4 uses in this file';
  // eglot asks for markdown only where markdown-mode (gfm-view-mode) is installed; otherwise the server
  // answers plain text (the markdown's markers removed: service/plain-text.ts)
  const plain = 'param M = 4\n\nstays symbolic in generated expressions\n\n4 uses in this file';
  assert.deepEqual(seen.hover.range, { start: { line: 1, character: 23 }, end: { line: 1, character: 24 } });
  assert.deepEqual(seen.hover.contents, seen.markdownMode ? { kind: 'markdown', value: markdown } : { kind: 'plaintext', value: plain });
  // eglot's rendering (`eglot--hover-info', what eldoc shows): the raw text without markdown-mode
  if (seen.markdownMode) assert.match(seen.hoverText, /stays symbolic in generated expressions/);
  else assert.equal(seen.hoverText, plain);
  assert.deepEqual(seen.definitions, [['demo.layout', [0, 6]]]);
  assert.equal(seen.formatted, [
    'param M = 4, N = 8',
    'layout L = OrderBy(Row(M, N)).GroupBy([M, N])  # rows',
    'let s = M * N',
    'layout K = OrderBy(Rw(M, N))',
    '# TODO more',
    '',
  ].join('\n'));
});
