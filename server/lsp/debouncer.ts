// A trailing debounce per key: diagnostics are computed once the user stops typing.

export class Debouncer<K> {
  private readonly timers = new Map<K, NodeJS.Timeout>();

  schedule(key: K, delayMs: number, run: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, delayMs),
    );
  }

  cancel(key: K): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
