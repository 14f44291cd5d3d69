#!/usr/bin/env bash
# Installs code-server 4.100.3 (its bundled VS Code 1.100.3 server runs on node 20) for the real-VS-Code suite.
# Idempotent: does nothing when it is already there. Needs node 20 and (apt) ripgrep libkrb5-dev pkg-config
# build-essential python3 (.ci/run installs them); reaches only the npm registry.
# Target folder: $LAYOUT_E2E_HOME (default ~/.cache/layout-lang-e2e)/code-server-4.100.3; test/e2e/run.mjs looks there.
set -euo pipefail
VERSION=4.100.3
ROOT="${LAYOUT_E2E_HOME:-$HOME/.cache/layout-lang-e2e}"
DIR="$ROOT/code-server-$VERSION"
MAIN="$DIR/node_modules/code-server/lib/vscode/out/server-main.js"
if [ -f "$MAIN" ] && [ -f "$DIR/.installed" ]; then
  echo "code-server $VERSION: present in $DIR"
  exit 0
fi
command -v rg >/dev/null || { echo "install-code-server: ripgrep (rg) is missing (apt-get install ripgrep)" >&2; exit 1; }
rm -rf "$DIR"
mkdir -p "$DIR"
# @vscode/ripgrep's postinstall downloads from GitHub; it first looks in its cache in the temp folder, so seed
# that cache with Debian's rg (the version/target names are the ones @vscode/ripgrep 1.15.11 asks for).
TMP_DIR=$(node -p 'require("os").tmpdir()')
CACHE="$TMP_DIR/vscode-ripgrep-cache-1.15.11"
mkdir -p "$CACHE" "$DIR/rgpkg"
cp "$(command -v rg)" "$DIR/rgpkg/rg"
for t in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
  [ -f "$CACHE/ripgrep-v13.0.0-10-$t.tar.gz" ] || tar czf "$CACHE/ripgrep-v13.0.0-10-$t.tar.gz" -C "$DIR/rgpkg" rg
done
cd "$DIR"
printf '{ "name": "layout-e2e-code-server", "version": "0.0.0", "private": true }\n' > package.json
# unsafe_perm: the postinstall refuses to run as root otherwise; yes: node-pty's postinstall runs `npx node-gyp`.
# Native modules fall back to building with node-gyp (their prebuilt downloads cannot be reached), against the
# running node's own headers (<prefix>/include/node, as Debian/NodeSource packages and the official tarballs
# ship them), so that node-gyp need not download headers either.
echo "code-server $VERSION: installing into $DIR (1-2 minutes)"
NODE_PREFIX=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$NODE_PREFIX/include/node/node.h" ]; then export npm_config_nodedir="$NODE_PREFIX"; fi
npm_config_unsafe_perm=true npm_config_yes=true \
  npm install --no-audit --no-fund --loglevel=error "code-server@$VERSION"
[ -f "$MAIN" ] || { echo "install-code-server: $MAIN missing after install" >&2; exit 1; }
touch "$DIR/.installed"
echo "code-server $VERSION: installed"
