// Where the editor gets the measured numbers shown next to a deploy config. The session
// store implements this: it knows which session was launched from (or matched by the
// user to) which deploy config. The match is explicit, never guessed from file names.
import type { LiveStageNumbers } from '../core/deploy/liveNumbers';

export type { LiveStageNumbers, StageLiveNumbers } from '../core/deploy/liveNumbers';

export interface Disposable {
  dispose(): void;
}

export interface StageNumbersProvider {
  /** The numbers of the session matched to this deploy config (absolute path), or null. */
  numbersFor(deployConfigPath: string): LiveStageNumbers | null;
  /** Called when numbers change; with the deploy config whose numbers changed, or null for "any". */
  onDidChange(listener: (deployConfigPath: string | null) => void): Disposable;
}

/** A provider holding numbers set by hand: for tests, the benchmark and `--test-numbers`. */
export class InMemoryStageNumbers implements StageNumbersProvider {
  private readonly numbers = new Map<string, LiveStageNumbers>();
  private readonly listeners = new Set<(deployConfigPath: string | null) => void>();

  numbersFor(deployConfigPath: string): LiveStageNumbers | null {
    return this.numbers.get(deployConfigPath) ?? null;
  }

  set(deployConfigPath: string, numbers: LiveStageNumbers | null): void {
    if (numbers) this.numbers.set(deployConfigPath, numbers);
    else this.numbers.delete(deployConfigPath);
    for (const listener of this.listeners) listener(deployConfigPath);
  }

  onDidChange(listener: (deployConfigPath: string | null) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/** No session ever matches: no hints. */
export const noStageNumbers: StageNumbersProvider = {
  numbersFor: () => null,
  onDidChange: () => ({ dispose: () => undefined }),
};
