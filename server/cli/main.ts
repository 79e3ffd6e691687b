// `stage-lens <command>`: a thin shell over server/core and server/capture. A command's
// code is loaded only when it runs: in dist/ each command is its own bundle
// (scripts/build.mjs), so `analyze` compiles neither the simulator nor compare nor the
// YAML library; this file loads only what the code cache needs (../codeCache.ts).
import { COMPARE_WORKER_COMMAND } from './workerCommand';
import { STAGE_LENS_VERSION } from '../version';
import { withCodeCache } from '../codeCache';
import { isFullRun } from '../codeCacheRun';
import { useOneShotFlags } from './oneShotFlags';
import { closestName } from '../core/didYouMean';

const USAGE = `Usage: stage-lens <command> [options]

Commands:
  analyze <file|->     per-stage phase split of a vLLM-Omni log or /metrics scrape
                       (table, JSON, CSV, or a Chrome trace for Perfetto)
  demo                 run the simulator and show a live per-stage phase table
  simulate             run the vLLM-Omni stand-in server (logs on stdout, /metrics over HTTP)
  compare <a> <b>      compare two runs (logs, scrapes or saved sessions; '-' is stdin)
  explain <file|->     why the slow requests are slow: tail attribution, load at
                       arrival, percentiles over time, cost per token

Run 'stage-lens <command> --help' (or 'stage-lens help <command>') for a command's options;
'stage-lens --version' prints the version.`;

/** The commands a user types (compare's worker is started by compare itself). */
const COMMANDS: readonly string[] = ['analyze', 'demo', 'simulate', 'compare', 'explain'];

type CommandRunner = (argv: string[]) => Promise<number>;

/**
 * The commands that read their inputs once and exit (see oneShotFlags.ts). Not compare's
 * worker: a thread of a compare process, whose V8 flags (process-wide) compare has set.
 */
const ONE_SHOT_COMMANDS: ReadonlySet<string> = new Set(['analyze', 'explain', 'compare']);

// `require`, not `import()`: a separate bundle in dist/ is loaded synchronously, without
// Node's ESM loader (the build marks these paths external), through V8's code cache.
function loadCommand(name: string): CommandRunner | null {
  return withCodeCache(__dirname, () => requireCommand(name), isFullRun);
}

function requireCommand(name: string): CommandRunner | null {
  switch (name) {
    case 'analyze':
      return (require('./analyze') as typeof import('./analyze')).runAnalyze;
    case 'simulate':
      return (require('../simulate/cli') as typeof import('../simulate/cli')).runSimulate;
    case 'demo':
      return (require('./demo') as typeof import('./demo')).runDemo;
    case 'compare':
      return (require('./compare') as typeof import('./compare')).runCompare;
    case 'explain':
      return (require('./explain') as typeof import('./explain')).runExplain;
    case COMPARE_WORKER_COMMAND:
      // A worker thread of `compare` (started on this file): reads one input and posts it back.
      return (require('./compare') as typeof import('./compare')).runCompareWorker;
    default:
      return null;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    // A usage error: the text goes to stderr, stdout stays empty for a pipe.
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    if (command === 'help' && rest.length > 0 && rest[0] !== '--help' && rest[0] !== '-h') return commandHelp(rest);
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`stage-lens ${STAGE_LENS_VERSION}\n`);
    return 0;
  }
  // Before the command's code is loaded: nothing has been optimized yet.
  if (ONE_SHOT_COMMANDS.has(command)) useOneShotFlags();
  const runner = loadCommand(command);
  if (runner === null) return unknownCommand(command);
  return runner(rest);
}

/** `stage-lens help <command>`: the command's own --help text, so the two never differ. */
function commandHelp(args: readonly string[]): Promise<number> | number {
  const [command, ...extra] = args;
  if (extra.length > 0) {
    process.stderr.write(`stage-lens help: one command at a time (got ${args.map((a) => `'${a}'`).join(' ')})\n`);
    return 2;
  }
  const runner = COMMANDS.includes(command) ? loadCommand(command) : null;
  if (runner === null) return unknownCommand(command, 'help');
  return runner(['--help']);
}

/** A usage error: the nearest command when one is close, else the whole usage. */
function unknownCommand(command: string, prefix = ''): number {
  const who = prefix === '' ? 'stage-lens' : `stage-lens ${prefix}`;
  const suggestion = closestName(command, COMMANDS);
  if (suggestion !== undefined) {
    process.stderr.write(
      `${who}: unknown command '${command}': did you mean '${suggestion}'?\n` +
        `Run 'stage-lens --help' for the commands.\n`,
    );
  } else {
    process.stderr.write(`${who}: unknown command '${command}'\n\n${USAGE}\n`);
  }
  return 2;
}

function outputErrorText(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOSPC') return 'no space left on the device (ENOSPC)';
  if (err.code === 'EBADF') return 'stdout is not open for writing (EBADF)';
  return err.message;
}

if (require.main === module) {
  // A reader that goes away early (`stage-lens analyze big.log --format json | head`) ends
  // the output, not the program with a stack trace: stop quietly, as command-line tools do.
  // Any other failed write (a full disk, a file that cannot be written) leaves the report
  // incomplete: say so once and fail, rather than a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`stage-lens: cannot write the output: ${outputErrorText(err)}\n`);
    process.exit(2);
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`stage-lens: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
