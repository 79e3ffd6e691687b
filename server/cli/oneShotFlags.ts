// V8's settings for the commands that read an input once and exit (analyze, explain,
// compare). Such a process spends much of its run before V8 has optimized the parser and
// the analysis, while the optimizing compiler's background jobs share the machine's cores
// with it. Less inlining per optimized function makes those jobs about half as long
// (`node --trace-opt` of `analyze` on a 75 MB log: 1.99 -> 1.01 s of compile jobs), so the
// optimized code arrives sooner, at a small cost to that code (measured: README, "Cold
// processes"). Long-running processes (the language server, demo, simulate) keep V8's defaults;
// `analyze --follow` takes the budget too (it keeps pace with a log, not with a CPU).
import { setFlagsFromString } from 'node:v8';

/** TurboFan's cumulative inlining budget per optimized function, in bytecode bytes (V8's default: 920). */
export const ONE_SHOT_INLINING_BUDGET = 300;

const FLAG = '--max-inlined-bytecode-size-cumulative';

/** The V8 flags to set, or null when the process was started with that flag (the user's choice stands). */
export function oneShotFlags(execArgv: readonly string[]): string | null {
  // V8 takes a flag's dashes and underscores alike.
  const named = (arg: string): boolean => arg.replace(/_/g, '-').startsWith(FLAG);
  return execArgv.some(named) ? null : `${FLAG}=${ONE_SHOT_INLINING_BUDGET}`;
}

/** Sets the one-shot flags in this process (before a command's code is loaded). */
export function useOneShotFlags(): void {
  const flags = oneShotFlags(process.execArgv);
  if (flags !== null) setFlagsFromString(flags);
}
