// Runs a poll now, then again every `intervalMs` (counted from each poll's start), never
// two at once: the next poll is scheduled when the previous one has finished, so a slow
// server stretches the interval instead of piling requests up. stop() aborts the poll in
// flight and resolves once it has settled: nothing runs after it.
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: { readonly controller: AbortController; readonly done: Promise<void> } | null = null;
  private active = false;

  /** `poll` gets a signal that stop() aborts; it must resolve (not reject) on every outcome. */
  constructor(
    private readonly intervalMs: number,
    private readonly poll: (signal: AbortSignal) => Promise<unknown>,
  ) {}

  get running(): boolean {
    return this.active;
  }

  /** Polls now, then every intervalMs. Calling it while running does nothing. */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.pollAndReschedule();
  }

  /** Cancels the timer and any poll in flight; resolves once that poll has settled. Safe to call twice. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const inFlight = this.inFlight;
    this.inFlight = null;
    if (inFlight !== null) {
      inFlight.controller.abort();
      await inFlight.done;
    }
  }

  private pollAndReschedule(): void {
    const controller = new AbortController();
    const started = Date.now();
    const done = this.poll(controller.signal).then(() => {
      if (this.inFlight?.controller === controller) this.inFlight = null;
      if (!this.active || controller.signal.aborted) return;
      this.timer = setTimeout(
        () => {
          this.timer = null;
          if (this.active) this.pollAndReschedule();
        },
        Math.max(0, this.intervalMs - (Date.now() - started)),
      );
    });
    this.inFlight = { controller, done };
  }
}
