// Tells a /metrics scrape from a server log by content, not by file name.
// A whole sample line: name, optional labels, a number, optional timestamp. Anchored at
// both ends so a log line such as `INFO 02-06 15:29:11 [...]` never matches.
const METRIC_LINE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})?\s+([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|[-+]?Inf|NaN)(\s+-?\d+)?$/;

/** True when the first meaningful lines of `head` are Prometheus exposition text. */
export function looksLikePrometheus(head: string): boolean {
  let seen = 0;
  // Line by line up to the third meaningful one: the head may be a whole first read (1 MB).
  for (let start = 0; start <= head.length;) {
    const nl = head.indexOf('\n', start);
    const end = nl === -1 ? head.length : nl;
    const line = head.slice(start, end).trim();
    start = end + 1;
    if (line === '') continue;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) return true;
    if (METRIC_LINE.test(line)) return true;
    if (++seen >= 3) return false;
  }
  return false;
}
