// Ctrl-C (SIGINT) or SIGTERM while a command reads an input that may never end (`tail -f
// server.log | stage-lens analyze -`, `analyze --follow`): the read stops there and the command
// reports what it read. Only the first signal is caught: a second one has its default
// effect and ends the process at once.
import { constants } from 'node:os';

export type StopSignal = 'SIGINT' | 'SIGTERM';

const SIGNAL_WORD: Readonly<Record<StopSignal, string>> = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM' };

const STOPPED = Symbol('stopped');

export class Interrupts {
  /** Resolves with the first of the signals that came (never, if none does). */
  readonly stopped: Promise<StopSignal>;
  private caught: StopSignal | null = null;
  private readonly listeners = new Map<StopSignal, () => void>();

  constructor(signals: readonly StopSignal[]) {
    this.stopped = new Promise((resolve) => {
      for (const signal of signals) {
        const listener = (): void => {
          this.caught = signal;
          this.dispose();
          resolve(signal);
        };
        this.listeners.set(signal, listener);
        process.on(signal, listener);
      }
    });
  }

  /** The signal that stopped the read, or null. */
  get signal(): StopSignal | null {
    return this.caught;
  }

  /** 130 after SIGINT, 143 after SIGTERM (as a shell reports a process the signal ended); null without one. */
  exitStatus(): number | null {
    return this.caught === null ? null : 128 + constants.signals[this.caught];
  }

  /** What a report read up to a signal says of itself. */
  note(): string | null {
    return this.caught === null
      ? null
      : `interrupted: the report covers what was read before ${SIGNAL_WORD[this.caught]}`;
  }

  /** Stops catching: a signal then has its default effect. */
  dispose(): void {
    for (const [signal, listener] of this.listeners) process.removeListener(signal, listener);
    this.listeners.clear();
  }

  /**
   * The input's chunks until a signal comes; then the iteration ends at once (a read still
   * waiting on the input is left to `abandon`, which closes the input).
   */
  async *until<T>(input: AsyncIterable<T>, abandon: () => void): AsyncGenerator<T, void, undefined> {
    const iterator = input[Symbol.asyncIterator]();
    const stop = this.stopped.then((): typeof STOPPED => STOPPED);
    for (;;) {
      const next = iterator.next();
      const result = await Promise.race([next, stop]);
      if (result === STOPPED) {
        next.catch(() => undefined);
        abandon();
        return;
      }
      if (result.done === true) return;
      yield result.value;
    }
  }
}
