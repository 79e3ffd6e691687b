// Whether this process did its main work (parsed an input), for V8's code cache
// (./codeCache.ts): a cache holds only the functions its run compiled, so one written by a
// run that stopped early (`--help`, a usage error, an empty input) lacks the parser and the
// analysis, and each later run would compile them again. The mark lives on globalThis: the
// CLI's entry (which owns the cache) and the command bundle it loads each have their own copy
// of this module.
const FULL_RUN = Symbol.for('stage-lens.codeCache.fullRun');

type Marked = typeof globalThis & { [FULL_RUN]?: true };

/** Called by a command once it has read an input: the cache this run leaves covers the main path. */
export function markFullRun(): void {
  (globalThis as Marked)[FULL_RUN] = true;
}

/** Whether markFullRun was called in this process. */
export function isFullRun(): boolean {
  return (globalThis as Marked)[FULL_RUN] === true;
}
