#!/usr/bin/env bash
# test/integration/support/ensure-prometheus.sh - makes sure the `prometheus` binary (Debian package
# `prometheus`) is there for test/integration/prometheus.test.ts, which starts its own server
# on loopback. Installs the package when it is missing and we are root on Debian (as CI and a
# fresh machine are). Elsewhere (not root, not Debian) it says what is needed and lets the
# Prometheus test skip itself with that message, unless STAGE_LENS_REQUIRE_ALL=1 (set by
# .ci/run): then a missing prometheus fails. Run by `npm run test:integration` before the tests.
set -euo pipefail

if command -v prometheus > /dev/null 2>&1; then exit 0; fi
cannot_install() {
  if [ "${STAGE_LENS_REQUIRE_ALL:-}" = 1 ]; then
    echo "ensure-prometheus: $* (STAGE_LENS_REQUIRE_ALL=1: not skipping)" >&2
    exit 1
  fi
  echo "ensure-prometheus: $*; the Prometheus integration test will be skipped" >&2
  exit 0
}
if ! command -v apt-get > /dev/null 2>&1; then
  cannot_install "the prometheus binary is missing and this machine has no apt-get (not Debian): install Prometheus so that 'prometheus' is on PATH"
fi
if [ "$(id -u)" != 0 ]; then
  cannot_install "the prometheus binary is missing and installing it needs root: apt-get update && apt-get install -y prometheus"
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
