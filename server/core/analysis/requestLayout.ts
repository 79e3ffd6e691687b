// The shape of a request apart from its numbers: which stages, which fields in which
// order, which cells carry a sample count, which transfer edges, which [OmniTiming]
// parts, which [Overall Summary] rows (when kept). A server build prints the same shape for request after request, so one layout
// object is shared by thousands of requests and each request keeps only its numbers.
import type { OmniTimingRecord, TransferEdge } from '../records';
import type { FieldMap } from '../values';

export interface FieldLayout {
  readonly names: readonly string[];
  /** counted[i]: the cell is a mean with its sample count (`13.490 (n=51)`): two slots. */
  readonly counted: readonly boolean[];
  readonly slotCount: number;
  /** An object with the keys in order, cloned per materialized map (V8 fast mode). */
  readonly template: Readonly<Record<string, null>>;
}

export interface StageColumnLayout {
  readonly stageKey: string;
  readonly stageId: number | null;
  readonly segment: number;
  readonly fields: FieldLayout;
}

export interface TransferLayout {
  readonly edge: string;
  readonly fromStage: number | null;
  readonly toStage: number | null;
  readonly fields: FieldLayout;
}

export interface TimingLayout {
  readonly stages: readonly { readonly stageId: number; readonly label: string | null }[];
  readonly transfers: readonly { readonly fromStage: number; readonly toStage: number }[];
  /** totalS, preprocessS, engineS, ar2diffusionMs, the stages' seconds, the transfers' ms. */
  readonly slotCount: number;
}

export interface RequestLayout {
  /** Stage columns of the stage table, or (stagesFromTiming) one per [OmniTiming] stage. */
  readonly stages: readonly StageColumnLayout[];
  readonly stagesFromTiming: boolean;
  readonly e2e: FieldLayout;
  readonly transfers: readonly TransferLayout[];
  readonly timing: TimingLayout | null;
  /** The [Overall Summary] kept with the request: its title's line (one slot), then its fields. */
  readonly overall: FieldLayout | null;
  readonly slotCount: number;
}

/** What a layout is made from: a request's parts, numbers ignored. */
export interface LayoutSource {
  readonly stages: readonly {
    readonly stageKey: string;
    readonly stageId: number | null;
    readonly segment: number;
    readonly fields: FieldMap;
  }[];
  readonly stagesFromTiming: boolean;
  readonly e2e: FieldMap;
  readonly transfers: readonly TransferEdge[];
  readonly timing: OmniTimingRecord | null;
  readonly overall: FieldMap | null;
}

const SEP = '\u0001';
const RECENT_LAYOUTS = 8;
const MAX_LAYOUTS = 10_000;

/** Interns layouts (and field layouts) by their shape. Bounded: garbage input cannot grow it without end. */
export class LayoutTable {
  private readonly layouts = new Map<string, RequestLayout>();
  private readonly fieldLayouts = new Map<string, FieldLayout>();
  /** Most recently used first: a request nearly always has the shape of a recent one. */
  private readonly recent: RequestLayout[] = [];

  layoutOf(source: LayoutSource): RequestLayout {
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const layout = recent[i];
      if (matches(layout, source)) {
        if (i > 0) {
          recent.splice(i, 1);
          recent.unshift(layout);
        }
        return layout;
      }
    }
    const layout = this.lookUp(source);
    recent.unshift(layout);
    if (recent.length > RECENT_LAYOUTS) recent.pop();
    return layout;
  }

  private lookUp(source: LayoutSource): RequestLayout {
    const parts: string[] = [source.stagesFromTiming ? 'T' : 'S'];
    const stageFields = source.stages.map((s) => this.fieldKey(s.fields));
    source.stages.forEach((s, i) =>
      parts.push(`${s.stageKey}${SEP}${s.stageId ?? ''}${SEP}${s.segment}${SEP}${stageFields[i]}`),
    );
    const e2eKey = this.fieldKey(source.e2e);
    parts.push(e2eKey);
    const edgeFields = source.transfers.map((t) => this.fieldKey(t.fields));
    source.transfers.forEach((t, i) =>
      parts.push(`${t.edge}${SEP}${t.fromStage ?? ''}${SEP}${t.toStage ?? ''}${SEP}${edgeFields[i]}`),
    );
    const timing = source.timing;
    if (timing !== null) {
      parts.push(
        `t${timing.stages.map((s) => `${s.stageId}=${s.label ?? ''}`).join(',')}|${timing.transfers.map((t) => `${t.fromStage}>${t.toStage}`).join(',')}`,
      );
    }
    const overallKey = source.overall === null ? null : this.fieldKey(source.overall);
    if (overallKey !== null) parts.push(`o${overallKey}`);
    const key = parts.join('\u0002');
    const known = this.layouts.get(key);
    if (known !== undefined) return known;
    const stages = source.stages.map((s, i) => ({
      stageKey: s.stageKey,
      stageId: s.stageId,
      segment: s.segment,
      fields: this.fieldLayout(stageFields[i], s.fields),
    }));
    const e2e = this.fieldLayout(e2eKey, source.e2e);
    const transfers = source.transfers.map((t, i) => ({
      edge: t.edge,
      fromStage: t.fromStage,
      toStage: t.toStage,
      fields: this.fieldLayout(edgeFields[i], t.fields),
    }));
    const timingLayout: TimingLayout | null =
      timing === null
        ? null
        : {
            stages: timing.stages.map((s) => ({ stageId: s.stageId, label: s.label })),
            transfers: timing.transfers.map((t) => ({ fromStage: t.fromStage, toStage: t.toStage })),
            slotCount: 4 + timing.stages.length + timing.transfers.length,
          };
    const overall =
      source.overall === null || overallKey === null ? null : this.fieldLayout(overallKey, source.overall);
    let slotCount = e2e.slotCount + (timingLayout?.slotCount ?? 0) + (overall === null ? 0 : 1 + overall.slotCount);
    for (const s of stages) slotCount += s.fields.slotCount;
    for (const t of transfers) slotCount += t.fields.slotCount;
    const layout: RequestLayout = {
      stages,
      stagesFromTiming: source.stagesFromTiming,
      e2e,
      transfers,
      timing: timingLayout,
      overall,
      slotCount,
    };
    if (this.layouts.size < MAX_LAYOUTS) this.layouts.set(key, layout);
    return layout;
  }

  get size(): number {
    return this.layouts.size;
  }

  private fieldKey(fields: FieldMap): string {
    let key = '';
    for (const name in fields) {
      const cell = fields[name];
      key +=
        cell !== undefined && cell.state === 'measured' && cell.sampleCount !== undefined
          ? `${name}*${SEP}`
          : `${name}${SEP}`;
    }
    return key;
  }

  private fieldLayout(key: string, fields: FieldMap): FieldLayout {
    const known = this.fieldLayouts.get(key);
    if (known !== undefined) return known;
    const names = Object.keys(fields);
    const counted = names.map((name) => {
      const cell = fields[name];
      return cell !== undefined && cell.state === 'measured' && cell.sampleCount !== undefined;
    });
    const template = Object.fromEntries(names.map((name) => [name, null])) as Record<string, null>;
    const layout: FieldLayout = { names, counted, slotCount: names.length + counted.filter(Boolean).length, template };
    if (this.fieldLayouts.size < MAX_LAYOUTS) this.fieldLayouts.set(key, layout);
    return layout;
  }
}

/** Whether the request has exactly this shape (compared in place: no key string built). */
function matches(layout: RequestLayout, source: LayoutSource): boolean {
  if (layout.stagesFromTiming !== source.stagesFromTiming || layout.stages.length !== source.stages.length)
    return false;
  if (layout.transfers.length !== source.transfers.length || (layout.timing === null) !== (source.timing === null))
    return false;
  if ((layout.overall === null) !== (source.overall === null)) return false;
  if (layout.overall !== null && source.overall !== null && !fieldsMatch(layout.overall, source.overall)) return false;
  for (let i = 0; i < source.stages.length; i++) {
    const s = source.stages[i];
    const l = layout.stages[i];
    if (
      s.stageKey !== l.stageKey ||
      s.stageId !== l.stageId ||
      s.segment !== l.segment ||
      !fieldsMatch(l.fields, s.fields)
    )
      return false;
  }
  if (!fieldsMatch(layout.e2e, source.e2e)) return false;
  for (let i = 0; i < source.transfers.length; i++) {
    const t = source.transfers[i];
    const l = layout.transfers[i];
    if (t.edge !== l.edge || t.fromStage !== l.fromStage || t.toStage !== l.toStage || !fieldsMatch(l.fields, t.fields))
      return false;
  }
  const timing = source.timing;
  const lt = layout.timing;
  if (timing !== null && lt !== null) {
    if (timing.stages.length !== lt.stages.length || timing.transfers.length !== lt.transfers.length) return false;
    for (let i = 0; i < timing.stages.length; i++) {
      const a = timing.stages[i];
      const b = lt.stages[i];
      if (a.stageId !== b.stageId || a.label !== b.label) return false;
    }
    for (let i = 0; i < timing.transfers.length; i++) {
      const a = timing.transfers[i];
      const b = lt.transfers[i];
      if (a.fromStage !== b.fromStage || a.toStage !== b.toStage) return false;
    }
  }
  return true;
}

function fieldsMatch(layout: FieldLayout, fields: FieldMap): boolean {
  const names = layout.names;
  let i = 0;
  for (const name in fields) {
    if (names[i] !== name) return false;
    const cell = fields[name];
    const counted = cell !== undefined && cell.state === 'measured' && cell.sampleCount !== undefined;
    if (counted !== layout.counted[i]) return false;
    i++;
  }
  return i === names.length;
}
