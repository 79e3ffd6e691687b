// What every capture source (launch, tail, attach) gives a session: raw bytes as they
// arrive, and status changes. Sources never throw at their users: failures arrive as
// `status('error' | 'crashed', message)` or `notice(message)`.
import type { GzipInputKind } from '../core/gzipInput';
import type { FileLines } from '../core/joinedLines';
import type { ParseProblem } from '../core/records';
import type { SessionStatus } from '../protocol';

/** Which stream a chunk came from. `file` for tailed files. */
export type ChunkStream = 'stdout' | 'stderr' | 'file';

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface CaptureListener {
  /** Raw bytes, in order, never split or merged across streams. */
  onData(chunk: Buffer, stream: ChunkStream): void;
  /** The source's state changed; `detail` says why in words a user reads. */
  onStatus(status: SessionStatus, detail: string | null, exit?: ExitInfo): void;
  /** Something worth telling the user that does not change the state (file rotated, truncated...). */
  onNotice(message: string): void;
  /**
   * The stream starts over: the bytes that follow are another file's (a tailed file rotated,
   * replaced or truncated), from its first line. A reader of lines ends what it read of the
   * old file and counts lines anew, so that a problem names a line of the file as it is.
   */
  onRestart?(stream: ChunkStream): void;
  /**
   * A lasting condition the session shows until it ends (a tailed file deleted: waiting for it
   * to come back); null when it has ended. Optional: sources that have none never call it.
   */
  onWaiting?(message: string | null): void;
  /**
   * The input's data broke off (a gzip file cut short or damaged): the bytes given before it
   * are all there is. A parse problem (gzipDamaged) for the session's findings, said before the
   * status that ends the source; `input`: what the data was of (absent: a log). Optional:
   * sources whose data cannot break off never call it.
   */
  onBrokeOff?(damage: ParseProblem, stream: ChunkStream, input?: GzipInputKind): void;
  /**
   * The input is a whole /metrics scrape (an imported file, told apart by content as the CLI
   * tells it): its text, read once it ended, said before the status that ends the source; its
   * bytes went to onData as well (stored, and read by the log parser as no requests).
   */
  onScrape?(text: string): void;
  /**
   * Several files were read as one log (an import of a log and its rotations): where each
   * file's lines are in the line numbers of its records and problems. Said before the status
   * that ends the source. Optional: a source of one input never calls it.
   */
  onFileLines?(files: readonly FileLines[]): void;
}

export interface CaptureSource {
  /** The command line, the file path: shown to the user. */
  readonly description: string;
  /** How often a polled source looks for new bytes, in ms; absent where bytes are pushed as they come. */
  readonly readIntervalMs?: number;
  /** Starts capturing; events go to the listener. */
  start(listener: CaptureListener): void;
  /** Stops capturing (for a launched process: SIGTERM, then SIGKILL after the grace period). Resolves when done. */
  stop(): Promise<void>;
}
