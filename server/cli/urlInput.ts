// An input named as a URL (`http://host:8000/metrics`): the commands read files and stdin,
// never the network, so the message says how to bring a scrape in (curl into stdin) instead of
// "no such file". stdin is one input only: a second URL, or one beside an input already read
// from stdin, is saved to a file first.
import { describeArgv } from '../core/shellWords';

const STDIN_INPUT = '-';

/** One input of a command as given, and what it is (a scrape saved for it is named after that). */
export interface CommandInput {
  readonly role: string;
  readonly value: string;
}

function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

function savedScrape(input: CommandInput): string {
  return `${input.role}.prom`;
}

/** The usage message for a command's one input when it is a URL, or null when it is not one. */
export function urlInputMessage(command: string, input: string): string | null {
  return urlInputsMessage(command, [{ role: 'scrape', value: input }]);
}

/**
 * The usage message for a command's inputs when one or more is a URL, or null when none is: the
 * first URL is piped in unless another input is stdin, any other saved to `<role>.prom` first.
 */
export function urlInputsMessage(command: string, inputs: readonly CommandInput[]): string | null {
  const urls = inputs.filter((i) => isUrl(i.value));
  const first = urls[0];
  if (first === undefined) return null;
  const stdin = inputs.find((i) => i.value === STDIN_INPUT);
  const piped = stdin === undefined ? first : undefined;
  const saved = urls.filter((u) => u !== piped);
  const args = inputs.map((i) => (i === piped ? STDIN_INPUT : isUrl(i.value) ? savedScrape(i) : i.value));
  const run = describeArgv(['stage-lens', command, ...args]);
  const saves = saved.map((u) => describeArgv(['curl', '-s', u.value, '-o', savedScrape(u)]));
  const subject = urls.length === 1 ? `${first.value} is a URL` : `${urls.map((u) => u.value).join(' and ')} are URLs`;
  const problem = `${subject}: ${command} reads a file or stdin, not the network.`;
  if (stdin !== undefined)
    return `${problem} stdin is the ${stdin.role} here, so save the scrape to a file first: ${saves.join(' && ')}, then: … | ${run}`;
  const pipe = `${describeArgv(['curl', '-s', first.value])} | ${run}`;
  if (saves.length === 0) return `${problem} To read a /metrics scrape, pipe it in: ${pipe}`;
  return `${problem} To read the /metrics scrapes, save one to a file and pipe the other in: ${saves.join(' && ')} && ${pipe}`;
}
