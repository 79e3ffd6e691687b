// Calls `fn` at most once per `intervalMs`, trailing: a burst of changes produces one
// call now and one at the end of the interval, never more than 1000/intervalMs per second.
export class Throttle {
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private pending = false;

  constructor(
    private readonly intervalMs: number,
    private readonly fn: () => void,
  ) {}

  trigger(): void {
    const now = Date.now();
    const wait = this.last + this.intervalMs - now;
    if (wait <= 0 && this.timer === null) {
      this.last = now;
      this.fn();
      return;
    }
    this.pending = true;
    if (this.timer === null) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          if (this.pending) {
            this.pending = false;
            this.last = Date.now();
            this.fn();
          }
        },
        Math.max(wait, 0),
      );
    }
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = false;
  }
}
