#!/usr/bin/env bash
# test/integration/ensure-prometheus.sh - makes sure the `prometheus` binary (Debian package
# `prometheus`) is there for test/integration/prometheus.test.ts, which starts its own server
# on loopback. Installs the package when it is missing and we are root (as CI and a fresh
# machine are); otherwise says how. Run by `npm run test:integration` before the tests.
set -euo pipefail

if command -v prometheus > /dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-prometheus: the prometheus binary is missing. Install it as root: apt-get update && apt-get install -y prometheus" >&2
  exit 1
fi
LOG=$(mktemp "${TMPDIR:-/tmp}/stage-lens-apt-prometheus.XXXXXX")
echo "ensure-prometheus: installing the Debian package prometheus (log: $LOG)"
if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q prometheus; } > "$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "ensure-prometheus: apt-get install prometheus failed" >&2
  exit 1
fi
command -v prometheus > /dev/null 2>&1 || { echo "ensure-prometheus: prometheus still not on PATH after installing the package" >&2; exit 1; }
rm -f "$LOG"
