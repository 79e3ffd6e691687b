// A diffusion stage's own timings (docs/formats.md#diffusion-keys): it prints no LLM phase
// split, so the phase table has nothing of its work; these rows say where its time goes. The
// timings overlap (the engine's execution holds its forward passes and VAE decode): a table of
// percentiles side by side, never a sum.
import type { StageSummary } from '../analysis/types';
import type { FieldMap } from '../values';
import { formatMs, textTable } from '../textTable';
import { stageCell } from '../stageRoles';
import { isDiffusionEvidenceField } from '../analysis/stageKind';

/** Printed name (without its unit suffix) -> column title, in the order the work happens. */
const DIFFUSION_COLUMNS: readonly (readonly [string, string])[] = [
  ['scheduler_queue_wait', 'queue wait'],
  ['kv_recv_time', 'KV recv'],
  ['preprocess_time', 'preprocess'],
  ['diffusion_engine_exec_time', 'engine exec'],
  ['diffusion_engine_total_time', 'engine total'],
  ['forward_time', 'forward'],
  ['denoise_step_latency', 'per denoise step'],
  ['vae_decode_time', 'VAE decode'],
  ['output_ready_wait_time', 'output wait'],
  ['postprocess_time', 'postprocess'],
];

/**
 * The fields the table reads: both spellings (`_s` of current builds, `_ms` of older ones). Every
 * stage prints `postprocess_time_ms`, so it does not make a stage a diffusion stage (stageKind.ts);
 * on a stage that is one, an older build's `postprocess_time_ms` is its postprocess.
 */
export const DIFFUSION_TABLE_FIELDS: readonly string[] = DIFFUSION_COLUMNS.flatMap(([name]) => [
  `${name}_s`,
  `${name}_ms`,
]);

const PERCENTILES = ['p50', 'p90', 'p99'] as const;

/** The diffusion timings' printed names without their unit suffix, in the order the work happens. */
export const DIFFUSION_TIMINGS: readonly string[] = DIFFUSION_COLUMNS.map(([name]) => name);

/** The name a request's stage printed a diffusion timing under (`_s` of current builds, else `_ms`), with what makes it ms; null when neither. */
export function printedTiming(
  fields: FieldMap,
  name: string,
): { readonly field: string; readonly toMs: number } | null {
  if (fields[`${name}_s`] !== undefined) return { field: `${name}_s`, toMs: 1000 };
  return fields[`${name}_ms`] === undefined ? null : { field: `${name}_ms`, toMs: 1 };
}

/** The stage's distribution of a timing in ms, whichever spelling it printed. */
function timingMs(stage: StageSummary, name: string): { readonly scale: number; readonly field: string } | null {
  for (const [suffix, scale] of [
    ['_s', 1000],
    ['_ms', 1],
  ] as const) {
    const field = `${name}${suffix}`;
    if (!DIFFUSION_TABLE_FIELDS.includes(field)) continue;
    if ((stage.fields[field]?.count ?? 0) > 0) return { scale, field };
  }
  return null;
}

/** The diffusion stages' timing table, or nothing when no stage printed one. */
export function diffusionLines(
  stages: readonly StageSummary[],
  roles: Readonly<Record<string, string>>,
  legacyZeros: ReadonlySet<number>,
): string[] {
  // A diffusion stage as stageKind.ts knows one: by the timings only it prints.
  const diffusion = stages.filter(
    (s) =>
      s.replicaId === null &&
      Object.keys(s.fields).some((f) => isDiffusionEvidenceField(f) && (s.fields[f]?.count ?? 0) > 0),
  );
  if (diffusion.length === 0) return [];
  const columns = DIFFUSION_COLUMNS.filter(([name]) => diffusion.some((s) => timingMs(s, name) !== null));
  const rows: string[][] = [];
  for (const s of diffusion)
    PERCENTILES.forEach((p, i) =>
      rows.push([
        i === 0 ? stageCell(s.stageKey, roles) : '',
        i === 0 ? String(s.requestCount) : '',
        p,
        ...columns.map(([name]) => {
          const t = timingMs(s, name);
          const d = t === null ? undefined : s.fields[t.field];
          return t === null || d === undefined || d.count === 0 ? '-' : formatMs(d[p] * t.scale);
        }),
      ]),
    );
  const out = [
    'Diffusion stage timings, ms (its own work, which the phase split does not measure; over measured values; they overlap: engine exec holds the forward passes and the VAE decode, so never add them up; "-" = not printed)',
    ...textTable(['stage', 'n', '', ...columns.map(([, title]) => title)], rows),
  ];
  // The n column counts the stage's requests; a column is over those that printed a value for it.
  for (const s of diffusion) {
    const counts = columns.map(([name, title]) => {
      const t = timingMs(s, name);
      return { title, count: t === null ? 0 : (s.fields[t.field]?.count ?? 0) };
    });
    const fewer = counts.filter((c) => c.count > 0 && c.count < s.requestCount);
    if (fewer.length === 0) continue;
    const same = fewer.length === counts.length && fewer.every((c) => c.count === fewer[0]?.count);
    const which = same ? `every column ${fewer[0]?.count}` : fewer.map((c) => `${c.title} ${c.count}`).join(', ');
    out.push(
      `  (${stageCell(s.stageKey, roles)}: ${which} of ${s.requestCount} requests printed a value; the others printed none (not measured, or a 0 the table hid with its all-zero row): left out, not counted as 0)`,
    );
  }
  const legacy = diffusion.filter((s) => s.stageId !== null && legacyZeros.has(s.stageId));
  if (legacy.length > 0)
    out.push(
      `  (${legacy.map((s) => stageCell(s.stageKey, roles)).join(', ')}: truncated _ms integers of an older build, where a 0 can mean not measured: finding diffusion-zero-ambiguous)`,
    );
  return out;
}
