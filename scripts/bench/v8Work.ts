// What V8 does in one cold run: optimizing compiles (and of how many functions), deopts, and
// optimized code thrown away because something it assumed changed (an object layout, an
// allocation site's decision to allocate old). Each compile of
// the analysis's larger functions costs 10-30 ms of a core; a deopt means the function runs
// unoptimized until it is compiled again. Counted from V8's own traces of a real run.
import { spawnSync } from 'node:child_process';

export interface V8Work {
  readonly compiles: number;
  readonly functions: number;
  readonly deopts: number;
  readonly invalidated: number;
}

/** Runs `node --trace-opt --trace-deopt <args>` once (its output discarded) and counts V8's work in it. */
export function v8WorkOf(args: readonly string[], env: NodeJS.ProcessEnv = process.env): V8Work {
  const run = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', ...args], {
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`traced run failed: ${run.stderr}`);
  let compiles = 0;
  let deopts = 0;
  let invalidated = 0;
  const functions = new Set<string>();
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('[completed compiling ')) {
      compiles++;
      const sfi = /\(sfi = (0x[0-9a-f]+)\)/.exec(line);
      if (sfi !== null) functions.add(sfi[1] as string);
    } else if (line.startsWith('[bailout (kind: deopt')) deopts++;
    else if (line.startsWith('[marking dependent code ')) invalidated++;
  }
  return { compiles, functions: functions.size, deopts, invalidated };
}

export function describeV8Work(w: V8Work): string {
  return `${w.compiles} optimizing compiles of ${w.functions} functions, ${w.deopts} deopts, ${w.invalidated} optimized functions thrown away for a changed assumption (an object layout, an allocation decision)`;
}
