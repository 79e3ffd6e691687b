// Peak RSS growth per request at scale: `analyze` of the bench log and of one twice its size
// from the same generator, alternated, medians. Between the two-stage log and the bench log the
// growth also holds V8's young generation growing to its largest size, a step paid once, not per
// request; between 200 and 400 MB only what the run keeps per request is left.
import { join } from 'node:path';
import { generateBenchLogApart } from './generateLog';

/** One run's peak RSS in MiB (null when the machine cannot tell). */
export type PeakOf = (argv: readonly string[], env?: Readonly<Record<string, string>>) => Promise<number | null>;

export interface GrowthAtScale {
  readonly format: 'table' | 'json';
  /** Median peak RSS, MiB. */
  readonly smallMB: number;
  readonly largeMB: number;
  /** KB per request between the two logs. */
  readonly kbPerRequest: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

export async function measureMemoryAtScale(
  cli: string,
  benchLog: { path: string; bytes: number; requests: number },
  dir: string,
  rounds: number,
  peakOf: PeakOf,
): Promise<GrowthAtScale[] | null> {
  const doublePath = join(dir, 'bench-double.log');
  const double = generateBenchLogApart(doublePath, 2 * benchLog.bytes);
  const formats = [
    { format: 'table' as const, extra: [] as string[] },
    // The JSON on one thread, as the bench's own load makes the CLI choose (parseInWorker.ts).
    { format: 'json' as const, extra: ['--format', 'json'] },
  ];
  const growth: GrowthAtScale[] = [];
  for (const { format, extra } of formats) {
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const env = { STAGE_LENS_PARSE_WORKER: '0' };
      const a = await peakOf([process.execPath, cli, 'analyze', benchLog.path, ...extra], env);
      const b = await peakOf([process.execPath, cli, 'analyze', doublePath, ...extra], env);
      if (a === null || b === null) return null;
      small.push(a);
      large.push(b);
    }
    const smallMB = median(small);
    const largeMB = median(large);
    growth.push({
      format,
      smallMB,
      largeMB,
      kbPerRequest: ((largeMB - smallMB) * 1024 * 1024) / 1000 / (double.requests - benchLog.requests),
    });
  }
  return growth;
}
