// The listeners of one kind of event of a polling source. A listener that throws must not
// stop the source's loop, so its error becomes a process warning instead.
export type Listener<T> = (value: T) => void;

export class ListenerSet<T> {
  private readonly listeners = new Set<Listener<T>>();

  /** `source` names the emitter in the warning (e.g. "scrape", "prometheus"). */
  constructor(private readonly source: string) {}

  /** Returns an unsubscribe function. */
  add(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        process.emitWarning(
          `stage-lens ${this.source} listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
