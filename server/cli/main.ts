// `stage-lens <command>`: a thin shell over server/core and server/capture.
import { isMainThread, workerData } from 'node:worker_threads';
import { runAnalyze } from './analyze';

const USAGE = `Usage: stage-lens <command> [options]

Commands:
  analyze <file|->     per-stage phase split of a vLLM-Omni log or /metrics scrape
                       (table, JSON, CSV, or a Chrome trace for Perfetto)
  demo                 run the simulator and show a live per-stage phase table
  simulate             run the vLLM-Omni stand-in server (logs on stdout, /metrics over HTTP)
  compare <a> <b>      compare two runs (logs, scrapes or saved sessions; '-' is stdin)
  explain <file|->     why the slow requests are slow: tail attribution, load at
                       arrival, percentiles over time, cost per token

Run 'stage-lens <command> --help' for a command's options.`;

type CommandRunner = (argv: string[]) => Promise<number>;

async function loadCommand(name: string): Promise<CommandRunner | null> {
  switch (name) {
    case 'analyze':
      return runAnalyze;
    case 'simulate':
      return (await import('../simulate/cli')).runSimulate;
    case 'demo':
      return (await import('./demo')).runDemo;
    case 'compare':
      return (await import('./compare')).runCompare;
    case 'explain':
      return (await import('./explain')).runExplain;
    default:
      return null;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return command === undefined ? 2 : 0;
  }
  const runner = await loadCommand(command);
  if (runner === null) {
    process.stderr.write(`stage-lens: unknown command '${command}'\n\n${USAGE}\n`);
    return 2;
  }
  return runner(rest);
}

// `compare` reads its two inputs in worker threads running this same bundle.
if (!isMainThread && typeof workerData === 'object' && workerData !== null && 'task' in workerData) {
  void import('./compare').then((m) => (m.isCompareWorker(workerData) ? m.runCompareWorker() : undefined));
} else if (require.main === module) {
  // A reader that goes away early (`stage-lens analyze big.log --format json | head`) ends
  // the output, not the program with a stack trace: stop quietly, as command-line tools do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
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
