// --since/--until, --boot and --server of analyze and explain select a log's requests; a /metrics
// scrape has none to select (one moment's counters), so any of them on one is a usage problem,
// said alike by both commands (compare says it of --baseline-boot and --candidate-boot).
import { andList } from '../core/andList';

/** The selections given: `window` --since or --until, `boot` --boot, `server` --server. */
export interface RequestSelection {
  readonly window: boolean;
  readonly boot: boolean;
  readonly server?: boolean;
}

/**
 * Why `source`, read as a /metrics scrape, cannot take the options given; null when none was
 * given. `command`: the command to run again.
 */
export function scrapeSelectionProblem(
  source: string,
  command: 'analyze' | 'explain',
  { window, boot, server = false }: RequestSelection,
): string | null {
  const given = [
    ...(window ? [{ flag: '--since/--until', has: 'times', by: 'the time they finished' }] : []),
    ...(boot ? [{ flag: '--boot', has: 'server boots', by: 'their server boot' }] : []),
    ...(server ? [{ flag: '--server', has: 'server tags', by: 'the server tag their lines carry' }] : []),
  ];
  if (given.length === 0) return null;
  const has =
    given.length === 1 && !window
      ? `no ${given[0].has}`
      : given.length === 1
        ? 'no requests and no times'
        : `no requests, ${given
            .map((g) => g.has)
            .join(', ')
            .replace(/, (?=[^,]*$)/, ' or ')}`;
  const one = given.length === 1 && given[0].flag !== '--since/--until';
  const selects = `${andList(given.map((g) => g.flag))} ${one ? 'selects' : 'select'} a log's requests ${andList(given.map((g) => `by ${g.by}`))}`;
  return (
    `${source} is a /metrics scrape, which has ${has} (its counters are one moment's, of every request since the server started); ` +
    `${selects}: run ${command} without ${one ? 'it' : 'them'}`
  );
}
