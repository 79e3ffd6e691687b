// Tells a /metrics scrape from a server log by content, not by file name.
// A whole sample line: name, optional labels, a number, optional timestamp. Anchored at
// both ends so a log line such as `INFO 02-06 15:29:11 [...]` never matches.
const METRIC_LINE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})?\s+([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|[-+]?Inf|NaN)(\s+-?\d+)?$/;

/** True when the first meaningful lines of `head` are Prometheus exposition text. */
export function looksLikePrometheus(head: string): boolean {
  let seen = 0;
  for (const raw of head.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) return true;
    if (METRIC_LINE.test(line)) return true;
    if (++seen >= 3) return false;
  }
  return false;
}
