// `stage-lens demo`: the main job on its built-in default. Starts the simulator (the
// stand-in vLLM-Omni server) as a real child process, captures its output like a
// launched server, and shows the live per-stage phase table; ends with a final summary.
import { parseArgs } from 'node:util';
import manifest from '../../package.json';
import { LaunchSource } from '../capture/launchSource';
// The simulator's own option parser, from its command's bundle (dist/cli-simulate.js), not a copy in demo's.
import { parseSimulateArgs, UsageError } from '../simulate/cli';
import { argsErrorText, withNegativeValues } from './commandArgs';
import { runLive } from './live';

const HELP = `Usage: stage-lens demo [options]

Starts the built-in vLLM-Omni simulator (Qwen3-TTS talker -> codec with talker first
audio on a build without the codec stats fix, starting cold), captures its log as
Stage Lens captures a launched server, and shows a live per-stage phase table.

Options:
  --scenario <name>   qwen3-tts | qwen3-omni | glm-image | cold-start (default cold-start)
  --duration <s>      stop after this many seconds (default 20)
  --rps <n>           requests per second (default: the scenario's own, as simulate's:
                      2, glm-image 0.15)
  --speed <x>         simulated time runs x times faster (default 4)
  --stats-build <b>   fixed | before-fix | no-input-split (default before-fix)
  -h, --help`;

export async function runDemo(argv: string[]): Promise<number> {
  const options = {
    scenario: { type: 'string', default: 'cold-start' },
    duration: { type: 'string', default: '20' },
    rps: { type: 'string' },
    speed: { type: 'string', default: '4' },
    'stats-build': { type: 'string', default: 'before-fix' },
    help: { type: 'boolean', short: 'h', default: false },
  } as const;
  let values;
  try {
    values = parseArgs({ args: withNegativeValues(argv, options), options }).values;
  } catch (err) {
    process.stderr.write(`stage-lens demo: ${argsErrorText(err as Error & { code?: string })}\n\n${HELP}\n`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const duration = Number(values.duration);
  if (!Number.isFinite(duration) || duration <= 0) {
    process.stderr.write(
      `stage-lens demo: --duration must be a positive number of seconds, got '${values.duration}'\n`,
    );
    return 2;
  }
  // `--name=value`: a value starting with '-' reaches the simulator's own check as a value.
  const simulatorOptions = [
    `--scenario=${values.scenario}`,
    '--talker-first-audio',
    `--stats-build=${values['stats-build']}`,
    '--port=0',
    // Without --rps, the scenario's own rate (glm-image's requests take seconds each).
    ...(values.rps === undefined ? [] : [`--rps=${values.rps}`]),
    `--speed=${values.speed}`,
    '--cold-start-ms=6000',
  ];
  // The simulator's own parser, before anything starts: its reason, not a dead child's silence.
  try {
    parseSimulateArgs(simulatorOptions);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`stage-lens demo: ${err.message}\nRun 'stage-lens demo --help' for the options.\n`);
    return 2;
  }
  const cli = process.argv[1] ?? '';
  const simulatorArgv = [process.execPath, ...process.execArgv, cli, 'simulate', ...simulatorOptions];
  // Like a real server, the simulator prints its stats tables only at DEBUG: it is launched
  // with the environment Stage Lens gives a launched server (stageLens.serverEnv's default).
  const env = manifest.contributes.configuration.properties['stageLens.serverEnv'].default;
  const source = new LaunchSource({ argv: simulatorArgv, cwd: process.cwd(), graceMs: 2000, env });
  return runLive({
    source,
    title: `simulator (${values.scenario})`,
    durationSeconds: duration,
    refreshMs: 1000,
    out: process.stdout,
    err: process.stderr,
    command: 'demo',
  });
}
