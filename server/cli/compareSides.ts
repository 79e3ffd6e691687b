// compare's inputs: `<baseline> <candidate>`, or, for runs whose logs were rotated, the files of
// each run on either side of `vs` (`stage-lens compare before/server.log* vs after/server.log*`):
// each side's files are read as one log, oldest first, as analyze reads several (severalInputs.ts).
import { joinedInputs, stdinAmongFilesMessage, type InputsToRead } from './severalInputs';

/** The word that parts the baseline's files from the candidate's. */
export const SIDES_SEPARATOR = 'vs';
const STDIN_INPUT = '-';

/** One run's input: one path or '-' (a log, a scrape or a session folder), or several log files, oldest first. */
export type CompareSide = InputsToRead;

/** Why `inputs` (not two) cannot be compared, naming what was given: "got 1 (a.log): give the candidate run too". */
function inputCountProblem(inputs: readonly string[]): string {
  const given = inputs.length === 0 ? '' : ` (${inputs.map((i) => (i === STDIN_INPUT ? 'stdin' : i)).join(', ')})`;
  const advice =
    inputs.length === 0
      ? 'give the baseline run and the candidate run'
      : inputs.length === 1
        ? 'give the candidate run too (a log, a /metrics scrape or a session folder)'
        : `give exactly two, or each run's files on either side of '${SIDES_SEPARATOR}' (a log and its rotations: before/server.log* ${SIDES_SEPARATOR} after/server.log*)`;
  return `expected two inputs, <baseline> <candidate>, got ${inputs.length}${given}: ${advice}`;
}

function side(inputs: readonly string[], role: 'baseline' | 'candidate'): CompareSide | string {
  if (inputs.length === 0)
    return `nothing ${role === 'baseline' ? 'before' : 'after'} '${SIDES_SEPARATOR}': give the ${role} run's files there`;
  if (inputs.length === 1) return { source: inputs[0] as string, files: null };
  if (inputs.includes(STDIN_INPUT)) return stdinAmongFilesMessage(inputs.length, ` for the ${role}`);
  const joined = joinedInputs(inputs);
  return typeof joined === 'string' ? `the ${role}: ${joined}` : joined;
}

/** The positionals as the two runs to compare, or why they cannot be (said before anything is read). */
export function compareSides(positionals: readonly string[]): [CompareSide, CompareSide] | string {
  const at = positionals.indexOf(SIDES_SEPARATOR);
  if (at === -1) {
    if (positionals.length !== 2) return inputCountProblem(positionals);
    return [
      { source: positionals[0] as string, files: null },
      { source: positionals[1] as string, files: null },
    ];
  }
  if (positionals.indexOf(SIDES_SEPARATOR, at + 1) !== -1)
    return `'${SIDES_SEPARATOR}' parts the two runs' files once, got it more than once (a file named vs: ./vs)`;
  const baseline = side(positionals.slice(0, at), 'baseline');
  if (typeof baseline === 'string') return baseline;
  const candidate = side(positionals.slice(at + 1), 'candidate');
  if (typeof candidate === 'string') return candidate;
  return [baseline, candidate];
}
