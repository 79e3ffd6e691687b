// Several files given to a command that reads one input (analyze, explain): most often a log and
// its rotations (`server.log*`, which a shell lists newest first: server.log, server.log.1, …).
// The message gives the pipe that reads them as one log, oldest first, with the command's other
// arguments; `gzip -dcf` passes plain files through, so rotated .gz files mix with plain ones.
import { describeArgv } from '../core/shellWords';
import { oldestFirst, rotationAge } from '../core/rotationOrder';

const STDIN_INPUT = '-';

/**
 * What to say when `command` got several inputs: they are read as one log through a pipe, oldest
 * first; `rest`, the command's other arguments as given. Without a way to pipe them (one of them
 * is stdin already), only that one input is read.
 */
export function severalInputsMessage(
  command: string,
  inputs: readonly string[],
  rest: readonly string[],
  expected: string,
): string {
  const got = `expected ${expected}, got ${inputs.length}`;
  if (inputs.includes(STDIN_INPUT)) return `${got}: stdin is one input; read one file, or pipe the others in.`;
  const ordered = oldestFirst(inputs);
  const rotated = ordered.some((f) => rotationAge(f) !== null);
  const reader = ordered.some((f) => f.endsWith('.gz')) ? ['gzip', '-dcf'] : ['cat'];
  // A name that starts with '-' would be read as an option.
  const files = ordered.some((f) => f.startsWith('-')) ? ['--', ...ordered] : ordered;
  const pipe = `${describeArgv([...reader, ...files])} | ${describeArgv(['stage-lens', command, STDIN_INPUT, ...rest])}`;
  return rotated
    ? `${got}. To read a log and its rotations as one log, pipe them in, oldest first: ${pipe}`
    : `${got}. To read them as one log, pipe them in, in the order the server wrote them: ${pipe}`;
}

/** `analyze --follow` of several files: it follows the one being written, the newest. */
export function followOneMessage(inputs: readonly string[], expected: string): string {
  const newest = oldestFirst(inputs).at(-1) ?? '';
  return `expected ${expected}, got ${inputs.length}: --follow follows the one log the server is writing (${describeArgv(['stage-lens', 'analyze', '--follow', newest])}); a rotated log is done growing.`;
}

/** `argv` without the positionals `inputs` (each taken out once, where it stands): the command's other arguments. */
export function argsBesides(argv: readonly string[], inputs: readonly string[]): string[] {
  const left = [...inputs];
  const out: string[] = [];
  for (const arg of argv) {
    const at = left.indexOf(arg);
    if (at === -1) out.push(arg);
    else left.splice(at, 1);
  }
  return out.filter((arg) => arg !== '--');
}
