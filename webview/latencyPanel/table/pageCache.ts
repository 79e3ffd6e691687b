// Pages of rows fetched on demand by offset. DOM-free.
// - generation: bumps when the query (sort, filter) changes; answers for an older
//   generation are dropped.
// - epoch: bumps when the data may have changed (new requests arrived); cached rows stay
//   on screen but are fetched again when next in view, so nothing flickers.
// - bounded: least recently used pages beyond `maxPages` are evicted.

interface Page<T> {
  readonly rows: readonly T[];
  epoch: number;
  lastUsed: number;
}

interface Pending {
  readonly page: number;
  readonly generation: number;
  readonly epoch: number;
}

export interface Accepted {
  readonly page: number;
  readonly total: number;
}

export class PageCache<T> {
  private pages = new Map<number, Page<T>>();
  private pending = new Map<number, Pending>();
  private generationValue = 0;
  private epochValue = 0;
  private clock = 0;

  constructor(
    readonly pageSize: number,
    private readonly maxPages = 64,
  ) {}

  get generation(): number {
    return this.generationValue;
  }

  /** The query changed: forget everything. */
  reset(): void {
    this.generationValue += 1;
    this.pages.clear();
    this.pending.clear();
  }

  /** The data may have changed: keep rows, fetch again on demand. */
  markStale(): void {
    this.epochValue += 1;
  }

  row(index: number): T | undefined {
    const page = this.pages.get(Math.floor(index / this.pageSize));
    if (page === undefined) return undefined;
    page.lastUsed = ++this.clock;
    return page.rows[index % this.pageSize];
  }

  /** Pages among `pages` that are missing or stale and not already asked for in this epoch. */
  wanted(pages: readonly number[]): number[] {
    return pages.filter((p) => {
      const cached = this.pages.get(p);
      if (cached !== undefined && cached.epoch === this.epochValue) return false;
      for (const q of this.pending.values())
        if (q.page === p && q.generation === this.generationValue && q.epoch === this.epochValue) return false;
      return true;
    });
  }

  /** Record that page `page` was asked for with sequence number `seq`. */
  request(seq: number, page: number): { offset: number; limit: number } {
    this.pending.set(seq, { page, generation: this.generationValue, epoch: this.epochValue });
    return { offset: page * this.pageSize, limit: this.pageSize };
  }

  pendingCount(): number {
    return this.pending.size;
  }

  /** Store an answer; null when it belongs to an older query. */
  accept(seq: number, rows: readonly T[], total: number): Accepted | null {
    const q = this.pending.get(seq);
    if (q === undefined) return null;
    this.pending.delete(seq);
    if (q.generation !== this.generationValue) return null;
    const existing = this.pages.get(q.page);
    // An older epoch's answer must not overwrite a newer one.
    if (existing !== undefined && existing.epoch > q.epoch) return { page: q.page, total };
    this.pages.set(q.page, { rows, epoch: q.epoch, lastUsed: ++this.clock });
    this.evict();
    return { page: q.page, total };
  }

  /** Forget a failed request so that the page can be asked for again. */
  fail(seq: number): void {
    this.pending.delete(seq);
  }

  /** Forget every open request (the host reported an error without saying which). */
  failAll(): void {
    this.pending.clear();
  }

  cachedPageCount(): number {
    return this.pages.size;
  }

  private evict(): void {
    if (this.pages.size <= this.maxPages) return;
    const byAge = [...this.pages.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [key] of byAge.slice(0, this.pages.size - this.maxPages)) this.pages.delete(key);
  }
}
