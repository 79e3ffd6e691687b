// The records still open, at most one per process (keyed by its process key). A log opens and
// finishes a record every few lines, nearly always for the same few processes: a finished
// record leaves its process's slot empty instead of being deleted from the map, because a
// Map delete leaves a hole that a later insert pays for by rebuilding the table (~4% of a
// whole cold `analyze`). Slots of processes gone quiet are dropped in batches, so a log that
// names a new process on every line keeps at most 2 × `maxOpen` slots.
import type { OpenRecord } from './openRecord';

interface Slot {
  record: OpenRecord | null;
  /** When the record was opened (a counter): the oldest is closed first. */
  openedAt: number;
}

export class OpenRecords {
  private readonly slots = new Map<string, Slot>();
  private opened = 0;
  private live = 0;

  constructor(private readonly maxOpen: number) {}

  get size(): number {
    return this.live;
  }

  /** Slots kept, open or empty (bounded: see dropEmptySlots). */
  get slotCount(): number {
    return this.slots.size;
  }

  get(processKey: string): OpenRecord | undefined {
    return this.slots.get(processKey)?.record ?? undefined;
  }

  /**
   * Makes `record` the open record of its process (the caller has closed the one before).
   * Returns the oldest open record when more than `maxOpen` are open, for the caller to close.
   */
  set(processKey: string, record: OpenRecord): OpenRecord | null {
    const slot = this.slots.get(processKey);
    if (slot === undefined) {
      if (this.slots.size >= 2 * this.maxOpen) this.dropEmptySlots();
      this.slots.set(processKey, { record, openedAt: this.opened++ });
      this.live++;
    } else {
      if (slot.record === null) this.live++;
      slot.record = record;
      slot.openedAt = this.opened++;
    }
    return this.live > this.maxOpen ? this.oldest() : null;
  }

  /** Empties the slot of `record` if it is still its process's open record. */
  forget(processKey: string, record: OpenRecord): void {
    const slot = this.slots.get(processKey);
    if (slot === undefined || slot.record !== record) return;
    slot.record = null;
    this.live--;
  }

  /** Every open record, oldest first. */
  inOpeningOrder(): OpenRecord[] {
    const slots: Slot[] = [];
    for (const slot of this.slots.values()) if (slot.record !== null) slots.push(slot);
    slots.sort((a, b) => a.openedAt - b.openedAt);
    return slots.map((slot) => slot.record as OpenRecord);
  }

  /** Whether any open record satisfies `test`. */
  some(test: (record: OpenRecord) => boolean): boolean {
    for (const slot of this.slots.values()) if (slot.record !== null && test(slot.record)) return true;
    return false;
  }

  private oldest(): OpenRecord | null {
    let oldest: Slot | null = null;
    for (const slot of this.slots.values())
      if (slot.record !== null && (oldest === null || slot.openedAt < oldest.openedAt)) oldest = slot;
    return oldest?.record ?? null;
  }

  private dropEmptySlots(): void {
    for (const [key, slot] of this.slots) if (slot.record === null) this.slots.delete(key);
  }
}
