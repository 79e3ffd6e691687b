// One request of `analyze --format json`, written as text straight from the analyzed request:
// exactly the bytes of JSON.stringify(requestJson(r)) (or, indented, JSON.stringify(…, null, 2)
// at its place in the document),
// without building requestJson's objects (for 10,000 requests of two stages, building them and
// JSON.stringify took ~0.7 s warmed up, a cold `analyze --format json` ~1.2 s). requestJson
// (jsonReport.ts) stays the definition; json-stream.test.ts checks the two agree byte for byte.
// Member order and dropped names follow JSON.stringify of requestJson's objects: a map built by
// assignment puts integer-like names first and drops `__proto__`.
import type { AnalyzedRequest, RequestStage, RequestTransfer } from '../analysis/types';
import type { FieldMap } from '../values';
import { nonFiniteText, toLogPrecision } from '../values';
import { breakdownOf } from '../explain/breakdown';
import type { BreakdownPart, RequestBreakdown } from '../explain/types';
import { round3, round3OrNull } from '../explain/breakdownJson';
import { prefillCoversDecode, reportedSplit } from '../analysis/oneOutputStage';
import type { OmniTimingRecord } from '../records';
import { timingStageKeys } from '../analysis/timingSegments';
import { MemberName, type JsonBytes } from './jsonBytes';
import { KeptRuns, MemberRun, type RunValue } from './memberRun';

const REQUEST_ID = new MemberName('requestId');
const SERVER = new MemberName('server');
const BOOT = new MemberName('boot');
const COLD = new MemberName('cold');
const LINE = new MemberName('line');
const TIMESTAMP = new MemberName('timestamp');
const COMPLETE = new MemberName('complete');
const STAGE_TABLE = new MemberName('stageTable');
const STAGES = new MemberName('stages');
const E2E = new MemberName('e2e');
const ADDED_TTFO = new MemberName('addedTimeToFirstOutputMs');
const TRANSFERS = new MemberName('transfers');
const OMNI_TIMING = new MemberName('omniTiming');
const OVERALL_SUMMARY = new MemberName('overallSummary');
const BREAKDOWN = new MemberName('breakdown');

const STAGE_ID = new MemberName('stageId');
const SEGMENT = new MemberName('segment');
const REPLICA_ID = new MemberName('replicaId');
const KIND = new MemberName('kind');
const FIELDS = new MemberName('fields');
const LIST_COUNTS = new MemberName('listCounts');
const SPLIT = new MemberName('split');
const SPLIT_STATE = new MemberName('splitState');
const PREFILL_COVERS_DECODE = new MemberName('prefillCoversDecode');

const FROM_STAGE = new MemberName('fromStage');
const TO_STAGE = new MemberName('toStage');
const TABLE_PRINTED = new MemberName('tablePrinted');
const OMNI_TIMING_TX_MS = new MemberName('omniTimingTxMs');
const OMNI_TIMING_TX_STATE = new MemberName('omniTimingTxState');

const TOTAL_S = new MemberName('totalS');
const PREPROCESS_S = new MemberName('preprocessS');
const ENGINE_S = new MemberName('engineS');
const AR2DIFFUSION_MS = new MemberName('ar2diffusionMs');
const EXTRA = new MemberName('extra');

const TOTAL_MS = new MemberName('totalMs');
const TOTAL_SOURCE = new MemberName('totalSource');
const OVERLAP_MS = new MemberName('overlapMs');
const OVERLAP_PLACEMENT = new MemberName('overlapPlacement');
const RESIDUAL_MS = new MemberName('residualMs');
const PARTS = new MemberName('parts');
const KEY = new MemberName('key');
const STAGE_KEY = new MemberName('stageKey');
const PHASE = new MemberName('phase');
const EDGE = new MemberName('edge');
const COMPONENT = new MemberName('component');
const MS = new MemberName('ms');
const STATE = new MemberName('state');
const START_MS = new MemberName('startMs');
const END_MS = new MemberName('endMs');
const PLACEMENT = new MemberName('placement');

// A name requestJson assigns into a fresh object: `__proto__` sets (or is ignored as) the prototype.
const DROPPED = '__proto__';

function partRun(p: BreakdownPart): MemberRun {
  const names: MemberName[] = [KEY, STAGE_KEY, STAGE_ID, PHASE];
  const values: RunValue[] = [p.key, p.stageKey, p.stageId, p.phase];
  if (p.edge !== null) {
    names.push(EDGE);
    values.push(p.edge);
  }
  if (p.component !== null) {
    names.push(COMPONENT);
    values.push(p.component);
  }
  return new MemberRun(names, values);
}

function stageRun(s: RequestStage): MemberRun {
  return new MemberRun([STAGE_ID, SEGMENT, REPLICA_ID, KIND], [s.stageId, s.segment, s.replicaId, s.kind]);
}

/** What a part's run says: its key names it, these tell two parts of one key apart. */
type PartIdentity = Pick<BreakdownPart, 'stageKey' | 'stageId' | 'phase' | 'edge' | 'component'>;
type StageHead = Pick<RequestStage, 'stageId' | 'segment' | 'replicaId' | 'kind'>;

/** Per writer: every request of a pipeline repeats the same part identities and stage heads. */
interface RequestRuns {
  readonly parts: KeptRuns<BreakdownPart, PartIdentity>;
  readonly stages: KeptRuns<RequestStage, StageHead>;
}

const writerRuns = new WeakMap<JsonBytes, RequestRuns>();

function runsOf(w: JsonBytes): RequestRuns {
  let runs = writerRuns.get(w);
  if (runs === undefined) {
    runs = {
      parts: new KeptRuns<BreakdownPart, PartIdentity>(
        ({ stageKey, stageId, phase, edge, component }) => ({ stageKey, stageId, phase, edge, component }),
        (a, b) =>
          a.stageKey === b.stageKey &&
          a.stageId === b.stageId &&
          a.phase === b.phase &&
          a.edge === b.edge &&
          a.component === b.component,
        partRun,
      ),
      stages: new KeptRuns<RequestStage, StageHead>(
        ({ stageId, segment, replicaId, kind }) => ({ stageId, segment, replicaId, kind }),
        (a, b) =>
          a.stageId === b.stageId && a.segment === b.segment && a.replicaId === b.replicaId && a.kind === b.kind,
        stageRun,
      ),
    };
    writerRuns.set(w, runs);
  }
  return runs;
}

/** Writes requestJson(r) as JSON.stringify would in the writer's layout (indented: at its depth). */
export function writeRequestJson(w: JsonBytes, r: AnalyzedRequest): void {
  w.openObject();
  w.stringMember(REQUEST_ID, r.requestId);
  if (r.server !== undefined) w.stringMember(SERVER, r.server);
  w.numberMember(BOOT, r.boot);
  w.booleanMember(COLD, r.cold);
  w.numberMember(LINE, r.line);
  w.stringMember(TIMESTAMP, r.timestamp);
  w.booleanMember(COMPLETE, r.complete);
  w.booleanMember(STAGE_TABLE, r.hasStageTable);

  w.member(STAGES);
  w.openObject();
  const stages = byName(r.stages, (s) => s.stageKey);
  const stageHeads = runsOf(w).stages;
  for (let i = 0; i < stages.names.length; i++) {
    w.named(stages.names[i] as string);
    writeStage(w, r, stages.items[i] as RequestStage, stageHeads);
  }
  w.closeObject();

  w.member(E2E);
  writeFields(w, r.e2e);

  w.member(ADDED_TTFO);
  w.openObject();
  const added = r.derived.addedTimeToFirstOutputMs;
  for (const key in added) {
    if (key === DROPPED) continue;
    w.named(key);
    w.number(toLogPrecision(added[key] as number));
  }
  w.closeObject();

  w.member(TRANSFERS);
  w.openObject();
  const transfers = byName(r.transfers, (t) => t.edge);
  for (let i = 0; i < transfers.names.length; i++) {
    w.named(transfers.names[i] as string);
    writeTransfer(w, transfers.items[i] as RequestTransfer);
  }
  w.closeObject();

  w.member(OMNI_TIMING);
  if (r.timing === null) w.null();
  else writeOmniTiming(w, r.timing);

  w.member(OVERALL_SUMMARY);
  if (r.overallSummary === null) w.null();
  else {
    w.openObject();
    w.numberMember(LINE, r.overallSummary.line);
    w.member(FIELDS);
    writeFields(w, r.overallSummary.fields);
    w.closeObject();
  }

  w.member(BREAKDOWN);
  writeBreakdown(w, breakdownOf(r));
  w.closeObject();
}

/** Items with their names, in the order JSON.stringify writes the members of an object. */
interface Named<T> {
  readonly names: readonly string[];
  readonly items: readonly T[];
}

/**
 * Items by name as an object built by assignment holds them: its names in its order, the last
 * item of a name. A request's few stages and edges nearly always have distinct names already
 * in that order (stage ids ascending, edges as read): then they are taken as they come, without
 * building the object.
 */
function byName<T>(items: readonly T[], name: (item: T, index: number) => string): Named<T> {
  const names = items.map(name);
  if (inObjectOrder(names)) return { names, items };
  const out: Record<string, T> = {};
  for (let i = 0; i < items.length; i++) out[names[i] as string] = items[i] as T;
  const kept = Object.keys(out);
  return { names: kept, items: kept.map((key) => out[key] as T) };
}

/** At most this many names are checked for the order (each against the others). */
const FEW_NAMES = 16;

/**
 * Whether an object built by assigning `names` in turn lists exactly them in turn: distinct, no
 * `__proto__`, and either all array indices, ascending (an object lists those first, ascending),
 * or none.
 */
function inObjectOrder(names: readonly string[]): boolean {
  if (names.length > FEW_NAMES) return false;
  let indices = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name === DROPPED) return false;
    for (let j = 0; j < i; j++) if (names[j] === name) return false;
    if (isArrayIndex(name)) {
      indices++;
      if (i > 0 && !(Number(names[i - 1]) < Number(name))) return false;
    }
  }
  return indices === 0 || indices === names.length;
}

/** An array index's canonical text: `0`, or digits without a leading 0, below 2^32 - 1. */
function isArrayIndex(name: string): boolean {
  const n = name.length;
  if (n === 0 || n > 10) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return (n === 1 || name.charCodeAt(0) !== 48) && Number(name) < 4294967295;
}

function writeStage(w: JsonBytes, r: AnalyzedRequest, s: RequestStage, heads: RequestRuns['stages']): void {
  w.openObject();
  w.members(heads.of(s.stageKey, s));
  w.member(FIELDS);
  writeFields(w, s.fields);
  w.member(LIST_COUNTS);
  w.openObject();
  for (const name in s.fields) {
    const cell = s.fields[name] as FieldMap[string];
    if (name === DROPPED || cell.state !== 'measured' || cell.sampleCount === undefined) continue;
    w.named(name);
    w.number(cell.sampleCount);
  }
  w.closeObject();
  // Printed values as printed, inferred ones at the log's precision.
  const oneOutput = prefillCoversDecode(r, s);
  const { values, states } = reportedSplit(s, oneOutput);
  w.member(SPLIT);
  w.openObject();
  for (const key of Object.keys(values) as (keyof typeof values)[]) {
    const v = values[key];
    w.named(key);
    w.number(v !== null && states[key] === 'inferred' ? toLogPrecision(v) : v);
  }
  w.closeObject();
  w.member(SPLIT_STATE);
  writeTexts(w, states, true);
  w.booleanMember(PREFILL_COVERS_DECODE, oneOutput);
  w.closeObject();
}

function writeFields(w: JsonBytes, fields: FieldMap): void {
  w.openObject();
  for (const name in fields) {
    if (name === DROPPED) continue;
    const cell = fields[name] as FieldMap[string];
    w.named(name);
    switch (cell.state) {
      case 'measured': {
        // nan / inf / -inf as printed (cellToJson): JSON has no such numbers, and null is None.
        const word = nonFiniteText(cell.value);
        if (word === null) w.number(cell.value);
        else w.word(word);
        break;
      }
      case 'notMeasured':
        w.null();
        break;
      case 'text':
        w.string(cell.value);
        break;
    }
  }
  w.closeObject();
}

/**
 * An object of text values held as is (JSON.stringify writes its own names, leaving out
 * undefined); `words`: its values come from a small set.
 */
function writeTexts(w: JsonBytes, texts: Readonly<Record<string, string>>, words: boolean): void {
  w.openObject();
  for (const name of Object.keys(texts)) {
    const text = texts[name];
    if (text === undefined) continue;
    w.named(name);
    if (words) w.word(text);
    else w.string(text);
  }
  w.closeObject();
}

function writeTransfer(w: JsonBytes, t: RequestTransfer): void {
  w.openObject();
  w.numberMember(FROM_STAGE, t.fromStage);
  w.numberMember(TO_STAGE, t.toStage);
  w.member(FIELDS);
  writeFields(w, t.fields);
  w.booleanMember(TABLE_PRINTED, t.tablePrinted);
  w.numberMember(OMNI_TIMING_TX_MS, t.omniTimingTxMs);
  w.wordMember(OMNI_TIMING_TX_STATE, t.omniTimingTxState);
  w.closeObject();
}

function writeOmniTiming(w: JsonBytes, t: OmniTimingRecord): void {
  w.openObject();
  w.numberMember(TOTAL_S, t.totalS);
  w.numberMember(PREPROCESS_S, t.preprocessS);
  w.numberMember(ENGINE_S, t.engineS);
  w.member(STAGES);
  const keys = timingStageKeys(t.stages);
  writeNumbers(
    w,
    byName(t.stages, (_, i) => keys[i] as string),
    (s) => s.seconds,
  );
  w.member(TRANSFERS);
  writeNumbers(
    w,
    byName(t.transfers, (x) => `${x.fromStage}->${x.toStage}`),
    (x) => x.ms,
  );
  w.numberMember(AR2DIFFUSION_MS, t.ar2diffusionMs);
  w.member(EXTRA);
  writeTexts(w, t.extra, false);
  w.closeObject();
}

function writeNumbers<T>(w: JsonBytes, named: Named<T>, value: (item: T) => number): void {
  w.openObject();
  for (let i = 0; i < named.names.length; i++) {
    w.named(named.names[i] as string);
    w.number(value(named.items[i] as T));
  }
  w.closeObject();
}

function writeBreakdown(w: JsonBytes, b: RequestBreakdown): void {
  w.openObject();
  w.numberMember(TOTAL_MS, round3OrNull(b.totalMs));
  w.wordMember(TOTAL_SOURCE, b.totalSource);
  w.numberMember(OVERLAP_MS, round3(b.overlapMs));
  w.wordMember(OVERLAP_PLACEMENT, b.overlapPlacement);
  w.numberMember(RESIDUAL_MS, round3OrNull(b.residualMs));
  w.member(PARTS);
  w.openArray();
  const heads = runsOf(w).parts;
  for (const part of b.parts) {
    w.element();
    writePart(w, part, heads);
  }
  w.closeArray();
  w.closeObject();
}

function writePart(w: JsonBytes, p: BreakdownPart, heads: RequestRuns['parts']): void {
  w.openObject();
  w.members(heads.of(p.key, p));
  w.numberMember(MS, round3OrNull(p.ms));
  w.wordMember(STATE, p.state);
  if (p.startMs !== null && p.endMs !== null && p.placement !== null) {
    w.numberMember(START_MS, round3(p.startMs));
    w.numberMember(END_MS, round3(p.endMs));
    w.wordMember(PLACEMENT, p.placement);
  }
  w.closeObject();
}
