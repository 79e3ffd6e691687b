// Runs `stage-lens simulate` directly (`node --import tsx server/simulate/cli-entry.ts ...`)
// until the main CLI dispatches to runSimulate.
import { runSimulate } from './cli';

runSimulate(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`stage-lens simulate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
