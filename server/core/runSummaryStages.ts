// Which stage a run summary's per-stage entry is. The summary dicts print their per-stage totals
// as a list (`'stages': [{'stage_id': 0, ...}, {'stage_id': 2, ...}]`), read as
// `stages.<position>.<field>`: the position is the entry's place in that list, not a stage id.
// Upstream's omni.py builds the list itself, one entry per stage of its stage list, and writes
// the stage's id into the entry (`stage_id`, first); a list that skips a stage or is not in id
// order makes position and id differ. So an entry is named by the stage_id it printed, and, where
// it printed none, by its list position, said as such: never a position read as a stage id.
// Pure; the CLI's table and the panels take their words from here.
import { stageLabel } from './stageRoles';

/** One entry of a run summary's `stages` list. */
export interface RunSummaryStageEntry {
  /** The dotted prefix of its values: `stages.1`. */
  readonly key: string;
  /** Its place in the printed list (the number in the key, from 0). */
  readonly position: number;
  /** The stage_id the entry printed; null when it printed none (then only the position is known). */
  readonly stageId: number | null;
}

/** `stages.<position>.` at the start of a summary's value name. */
const STAGE_ENTRY = /^stages\.(\d{1,6})\./;

/** The entry a value name `stages.<n>.<field>` belongs to, as its position; null for another name. */
export function stageEntryPosition(name: string): number | null {
  const m = STAGE_ENTRY.exec(name);
  return m === null ? null : Number(m[1]);
}

/** The `stages` list entries of a summary's values, in list order, each with the stage_id it printed. */
export function runSummaryStageEntries(
  values: Readonly<Record<string, number | string | null>>,
): RunSummaryStageEntry[] {
  const positions = new Set<number>();
  for (const name in values) {
    const p = stageEntryPosition(name);
    if (p !== null) positions.add(p);
  }
  return [...positions]
    .sort((a, b) => a - b)
    .map((position) => {
      const key = `stages.${position}`;
      const id = values[`${key}.stage_id`];
      const stageId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
      return { key, position, stageId };
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

/** The entry text of value `name` (runSummaryStageText), or '' for a value of no `stages` entry. */
export function runSummaryFieldStage(
  name: string,
  entries: readonly RunSummaryStageEntry[],
  roles: Readonly<Record<string, string>>,
): string {
  const position = stageEntryPosition(name);
  if (position === null) return '';
  const entry = entries.find((e) => e.position === position);
  return entry === undefined ? '' : runSummaryStageText(entry, roles);
}

/** What the `stage` beside a `stages.<n>` value means, for a table's foot. */
export function runSummaryStageNote(entries: readonly RunSummaryStageEntry[]): string {
  const unnamed = entries.some((e) => e.stageId === null);
  return `stages.<n>: entry n (from 0) of the stages list as printed, which need not be stage n; stage: the stage_id the entry printed${unnamed ? ', or its list position where it printed none' : ''}.`;
}
