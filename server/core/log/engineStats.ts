// vLLM's periodic LoggingStatLogger line (formats reference §B.8, real-logs 09):
//   Engine 000: Avg prompt throughput: 2549.0 tokens/s, Avg generation throughput: 2.4 tokens/s,
//   Running: 8 reqs, Waiting: 2 reqs, GPU KV cache usage: 23.2%, Prefix cache hit rate: 0.0%
// Newer vLLM appends `Preemptions: N` / `Deferred: N reqs`; any `Label: number unit` part is
// kept under its snake_case label. Percentages stay percentages (23.2, not 0.232).
import { detach, isSafeKey } from './strings';

const MARKER = 'Avg prompt throughput:';
const ENGINE = /^Engine (\w{1,20}): /;
const PART = /^([A-Za-z][A-Za-z0-9 ()/-]{0,60}?): (-?\d[\d,]*(?:\.\d+)?)(?:\s?\S{0,16})?$/;

export interface EngineStats {
  readonly engine: string;
  readonly values: Record<string, number>;
}

function snakeCase(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The engine stats in a message, or null when it is not such a line. */
export function parseEngineStats(message: string): EngineStats | null {
  const at = message.indexOf(MARKER);
  if (at === -1) return null;
  const m = ENGINE.exec(message);
  // vLLM V0 printed the same line without the `Engine NNN:` part.
  const engine = m === null ? '' : detach(m[1] as string);
  const body = message.slice(m === null ? at : m[0].length);
  const values: Record<string, number> = {};
  for (const part of body.split(', ')) {
    const p = PART.exec(part.trim());
    if (p === null) continue;
    const key = snakeCase(p[1] as string);
    if (key !== '' && isSafeKey(key)) values[detach(key)] = Number((p[2] as string).replace(/,/g, ''));
  }
  return { engine, values };
}
