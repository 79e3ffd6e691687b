// Which stage or edge a run summary's list entry is. The summary dicts print their per-stage and
// per-edge totals as lists (`'stages': [{'stage_id': 0, ...}, ...]`, `'transfers':
// [{'from_stage': 0, 'to_stage': 1, ...}, ...]`), read as `stages.<position>.<field>` and
// `transfers.<position>.<field>`: the position is the entry's place in its list, not a stage id
// nor an edge. Upstream's omni.py writes the stage's id into a stages entry (`stage_id`) and the
// edge's ends into a transfers entry (`from_stage`, `to_stage`); a list that skips a stage or an
// edge, or is in another order, makes position and id differ. So an entry is named by what it
// printed, and, where it printed none, by its list position, said as such: never a position read
// as a stage id or an edge. Pure; the CLI's table and the panels take their words from here.
import { stageLabel, roleOfStage } from './stageRoles';
import { edgeLabel } from './edgeLabel';

/** One entry of a run summary's `stages` list. */
export interface RunSummaryStageEntry {
  /** The dotted prefix of its values: `stages.1`. */
  readonly key: string;
  /** Its place in the printed list (the number in the key, from 0). */
  readonly position: number;
  /** The stage_id the entry printed; null when it printed none (then only the position is known). */
  readonly stageId: number | null;
}

/** One entry of a run summary's `transfers` list. */
export interface RunSummaryTransferEntry {
  /** The dotted prefix of its values: `transfers.0`. */
  readonly key: string;
  /** Its place in the printed list (the number in the key, from 0). */
  readonly position: number;
  /** The from_stage the entry printed; null when it printed none. */
  readonly fromStage: number | null;
  /** The to_stage the entry printed; null when it printed none. */
  readonly toStage: number | null;
}

/** The entries of a summary's lists, as RunSummary carries them. */
export interface RunSummaryEntries {
  readonly stageEntries: readonly RunSummaryStageEntry[];
  readonly transferEntries: readonly RunSummaryTransferEntry[];
}

/** `stages.<position>.` at the start of a summary's value name. */
const STAGE_ENTRY = /^stages\.(\d{1,6})\./;
/** `transfers.<position>.` at the start of a summary's value name. */
const TRANSFER_ENTRY = /^transfers\.(\d{1,6})\./;

/** The entry a value name `stages.<n>.<field>` belongs to, as its position; null for another name. */
export function stageEntryPosition(name: string): number | null {
  const m = STAGE_ENTRY.exec(name);
  return m === null ? null : Number(m[1]);
}

/** The entry a value name `transfers.<n>.<field>` belongs to, as its position; null for another name. */
export function transferEntryPosition(name: string): number | null {
  const m = TRANSFER_ENTRY.exec(name);
  return m === null ? null : Number(m[1]);
}

/** The positions of the entries of one list (`entryPosition` tells a value of it), in list order. */
function entryPositions(
  values: Readonly<Record<string, number | string | null>>,
  entryPosition: (name: string) => number | null,
): number[] {
  const positions = new Set<number>();
  for (const name in values) {
    const p = entryPosition(name);
    if (p !== null) positions.add(p);
  }
  return [...positions].sort((a, b) => a - b);
}

/** A stage id as printed: a whole number from 0, else null (not printed, None, or no id). */
function printedStageId(v: number | string | null | undefined): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

/** The `stages` list entries of a summary's values, in list order, each with the stage_id it printed. */
export function runSummaryStageEntries(
  values: Readonly<Record<string, number | string | null>>,
): RunSummaryStageEntry[] {
  return entryPositions(values, stageEntryPosition).map((position) => {
    const key = `stages.${position}`;
    return { key, position, stageId: printedStageId(values[`${key}.stage_id`]) };
  });
}

/** The `transfers` list entries of a summary's values, in list order, each with the edge it printed. */
export function runSummaryTransferEntries(
  values: Readonly<Record<string, number | string | null>>,
): RunSummaryTransferEntry[] {
  return entryPositions(values, transferEntryPosition).map((position) => {
    const key = `transfers.${position}`;
    return {
      key,
      position,
      fromStage: printedStageId(values[`${key}.from_stage`]),
      toStage: printedStageId(values[`${key}.to_stage`]),
    };
  });
}

/**
 * What an entry is, in the words the CLI and the panels share: `stage 2 · talker` (the stage_id
 * it printed, with the stage's role), or `list position 1 (no stage_id printed)`.
 */
export function runSummaryStageText(entry: RunSummaryStageEntry, roles: Readonly<Record<string, string>>): string {
  return entry.stageId === null
    ? `list position ${entry.position} (no stage_id printed)`
    : stageLabel(String(entry.stageId), roles);
}

/**
 * What a transfers entry is: `edge 0 → 1 · thinker → talker` (the from_stage and to_stage it
 * printed, with the stages' roles when both are known; `?` for an end it did not print), or
 * `list position 1 (no edge printed)` when it printed neither.
 */
export function runSummaryTransferText(
  entry: RunSummaryTransferEntry,
  roles: Readonly<Record<string, string>>,
): string {
  if (entry.fromStage === null && entry.toStage === null) return `list position ${entry.position} (no edge printed)`;
  const from = entry.fromStage === null ? '?' : String(entry.fromStage);
  const to = entry.toStage === null ? '?' : String(entry.toStage);
  const fromRole = entry.fromStage === null ? '' : roleOfStage(from, roles);
  const toRole = entry.toStage === null ? '' : roleOfStage(to, roles);
  const edge = `edge ${edgeLabel(`${from}->${to}`)}`;
  return fromRole !== '' && toRole !== '' ? `${edge} · ${fromRole} → ${toRole}` : edge;
}

/** The list entry value `name` belongs to (`stages.1`, `transfers.0`), or null for a value of no entry. */
export function runSummaryEntryKey(name: string): string | null {
  const stage = stageEntryPosition(name);
  if (stage !== null) return `stages.${stage}`;
  const transfer = transferEntryPosition(name);
  return transfer === null ? null : `transfers.${transfer}`;
}

/**
 * The entry text of value `name` (runSummaryStageText, runSummaryTransferText), or '' for a value
 * of no `stages` or `transfers` entry.
 */
export function runSummaryFieldEntry(
  name: string,
  entries: RunSummaryEntries,
  roles: Readonly<Record<string, string>>,
): string {
  const stage = stageEntryPosition(name);
  if (stage !== null) {
    const entry = entries.stageEntries.find((e) => e.position === stage);
    return entry === undefined ? '' : runSummaryStageText(entry, roles);
  }
  const transfer = transferEntryPosition(name);
  if (transfer === null) return '';
  const entry = entries.transferEntries.find((e) => e.position === transfer);
  return entry === undefined ? '' : runSummaryTransferText(entry, roles);
}

/** Whether a summary has list entries to name (a `stage` column in the table). */
export function hasRunSummaryEntries(entries: RunSummaryEntries): boolean {
  return entries.stageEntries.length > 0 || entries.transferEntries.length > 0;
}

/** What the `stage` beside a `stages.<n>` or `transfers.<n>` value means, for a table's foot: a line per list. */
export function runSummaryEntryNotes(entries: RunSummaryEntries): string[] {
  const parts: string[] = [];
  if (entries.stageEntries.length > 0) {
    const unnamed = entries.stageEntries.some((e) => e.stageId === null);
    parts.push(
      `stages.<n>: entry n (from 0) of the stages list as printed, which need not be stage n; stage: the stage_id the entry printed${unnamed ? ', or its list position where it printed none' : ''}.`,
    );
  }
  if (entries.transferEntries.length > 0) {
    const unnamed = entries.transferEntries.some((e) => e.fromStage === null && e.toStage === null);
    parts.push(
      `transfers.<n>: entry n (from 0) of the transfers list as printed; stage: the edge (from_stage → to_stage) the entry printed${unnamed ? ', or its list position where it printed none' : ''}.`,
    );
  }
  return parts;
}
