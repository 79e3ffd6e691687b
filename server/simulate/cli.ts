// `stage-lens simulate`: the entry the CLI dispatches to. Exit codes: 0 after a clean
// stop (N requests, duration, SIGTERM/SIGINT), 1 when the server cannot start, 2 for
// usage errors.
import { HELP, parseSimulateArgs, UsageError } from './options';
import { runSimulation } from './runner';

// demo checks its simulator options with the simulator's own parser, from this bundle (dist/cli-simulate.js).
export { parseSimulateArgs, UsageError };

export async function runSimulate(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseSimulateArgs(argv, process.env);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`stage-lens simulate: ${e.message}\nRun 'stage-lens simulate --help' for the options.\n`);
      return 2;
    }
    throw e;
  }
  if (options === null) {
    process.stdout.write(HELP);
    return 0;
  }
  return runSimulation({ ...options, out: process.stdout, err: process.stderr });
}
