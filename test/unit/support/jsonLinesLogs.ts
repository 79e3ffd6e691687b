// A vLLM-Omni log as the JSON-lines files users have of it: Docker's json-file driver, and vLLM's
// JSON formatter (one object per logging call, its message without the text formatter's prefix).

/** Each line of `log` as Docker's json-file driver writes it: with its newline, in `log`. */
export function dockerJsonLog(log: string): string {
  return (
    log
      .split(/(?<=\n)/)
      .map((l) => JSON.stringify({ log: l, stream: 'stderr', time: '2026-12-01T10:00:00.000000001Z' }))
      .join('\n') + '\n'
  );
}

const VLLM_PREFIX = /^(?:\((\S+) pid=(\d+)\) )?(DEBUG|INFO|WARNING) (\d\d-\d\d \d\d:\d\d:\d\d) \[([^\]:]+):(\d+)\] ?/;

/**
 * `log` as vLLM's JSON formatter logs it: the lines of one logging call (the same prefix, a table's
 * title starting the next) as one message, with its time, level, process and call site as fields;
 * `withFields` false: the message alone, as a formatter configured with no fields writes it.
 */
export function vllmJsonFormatterLog(log: string, withFields = true): string {
  const calls: { prefix: string | null; lines: string[]; fields: RegExpExecArray | null }[] = [];
  for (const line of log.replace(/\n$/, '').split('\n')) {
    const m = VLLM_PREFIX.exec(line);
    const body = m === null ? line : line.slice(m[0].length);
    const last = calls[calls.length - 1];
    if (last !== undefined && m !== null && last.prefix === m[0] && !body.startsWith('[')) last.lines.push(body);
    else calls.push({ prefix: m === null ? null : m[0], lines: [body], fields: m });
  }
  return (
    calls
      .map(({ lines, fields: m }) =>
        JSON.stringify({
          message: lines.join('\n'),
          ...(m === null || !withFields
            ? {}
            : {
                asctime: m[4],
                levelname: m[3],
                name: 'vllm_omni.metrics.stats',
                processName: 'MainProcess',
                filename: m[5],
                lineno: Number(m[6]),
                ...(m[1] === undefined ? {} : { process: Number(m[2]), vllm_process_name: m[1] }),
              }),
        }),
      )
      .join('\n') + '\n'
  );
}
