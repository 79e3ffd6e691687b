// A real three-stage request (upstream-rendered fixture) whose id, row names and [OmniTiming]
// extras are hostile: quotes, escapes, non-ASCII, a line separator, integer-like names,
// `toJSON` and `__proto__`. What every writer and hand-over of records must carry unchanged.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The request id the log's records carry. */
export const HOSTILE_REQUEST_ID = 'chat"q\\\u00e9\u{1f600}\u2028';

/** The log's text, ending with a line feed. */
export function hostileNamesLog(): string {
  const fixture = path.resolve(
    __dirname,
    '..',
    '..',
    'fixtures',
    'upstream-rendered',
    'qwen3-omni-three-stage-transfers.log',
  );
  const lines = readFileSync(fixture, 'utf8').split('\n').slice(15, 67);
  const hostileRows = ['__proto__', '10', '2', 'toJSON', '"quoted"', 'na\u00efve\u{1f600}', 'tab\there'].map(
    (name) =>
      `(APIServer pid=12672) DEBUG 10-22 09:30:53 [vllm_omni/metrics/stats.py:1044] | ${name} | 1.5 | 2 | None |`,
  );
  return (
    lines
      .flatMap((line) => (line.includes('| vllm_ttft_ms') ? [line, ...hostileRows] : [line]))
      .map((line) =>
        line
          .replaceAll('chatcmpl-3c88c0cf9be8c9bf', HOSTILE_REQUEST_ID)
          .replace(
            'transfers=[0->1=78.70ms,1->2=18.79ms]',
            'transfers=[0->1=78.70ms,1->2=18.79ms] 5=five __proto__=p "k"=\u00e9',
          ),
      )
      .join('\n') + '\n'
  );
}
