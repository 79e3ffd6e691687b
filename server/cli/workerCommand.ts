// The hidden command a `compare` worker thread runs: the worker starts on the CLI's entry
// file (dist/cli.js) like a command, so it needs no entry point of its own.
export const COMPARE_WORKER_COMMAND = '__compare-worker';
