// What `analyze`'s parse worker (parseWorker.ts) and the thread that started it
// (parseInWorker.ts) pass each other.
import type { PackedBatch } from '../core/log/recordPack';

/** The worker's data: the open file to read from its position, and the in-flight counter. */
export interface ParseWorkerData {
  readonly fd: number;
  /** Int32Array over it: [0] batches posted and not yet taken. */
  readonly inFlight: SharedArrayBuffer;
}

/** Batches posted and not yet taken at which the worker waits: it cannot run far ahead of a slow reader. */
export const MAX_BATCHES_IN_FLIGHT = 16;

export type ParseWorkerMessage =
  | { readonly type: 'batch'; readonly batch: PackedBatch; readonly bytes: number }
  /** The last batch (the parser's end): nothing follows. */
  | { readonly type: 'end'; readonly batch: PackedBatch; readonly bytes: number }
  /** Reading the file failed (the error's code and message, as fs gave them). */
  | { readonly type: 'error'; readonly code: string | undefined; readonly message: string };
