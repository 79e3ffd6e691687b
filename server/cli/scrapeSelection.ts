// --since/--until and --boot of analyze and explain select a log's requests; a /metrics scrape
// has none to select (one moment's counters), so either option on one is a usage problem, said
// alike by both commands (compare says it of --baseline-boot and --candidate-boot).

/**
 * Why `source`, read as a /metrics scrape, cannot take the options given (`window`: --since or
 * --until; `boot`: --boot); null when neither was given. `command`: the command to run again.
 */
export function scrapeSelectionProblem(
  source: string,
  command: 'analyze' | 'explain',
  { window, boot }: { readonly window: boolean; readonly boot: boolean },
): string | null {
  if (!window && !boot) return null;
  const has =
    window && boot ? 'no requests, times or server boots' : window ? 'no requests and no times' : 'no server boots';
  const selects =
    window && boot
      ? "--since/--until and --boot select a log's requests by the time they finished and by their server boot"
      : window
        ? "--since/--until select a log's requests by the time they finished"
        : "--boot selects a log's requests by their server boot";
  return (
    `${source} is a /metrics scrape, which has ${has} (its counters are one moment's, of every request since the server started); ` +
    `${selects}: run ${command} without ${window ? 'them' : 'it'}`
  );
}
