// `analyze`'s parse worker: a thread that reads a large log file and parses it, posting the
// records packed (../core/log/recordPack.ts) to the thread that started it, which analyzes
// them and writes the report meanwhile (parseInWorker.ts). A bundle of its own
// (dist/cli-parse-worker.js): the thread loads only the parser.
import { parentPort, workerData } from 'node:worker_threads';
import { LogStreamParser } from '../core/log';
import { pushInPieces } from '../core/log/pushInPieces';
import { RecordPacker } from '../core/log/recordPacker';
import type { PackedBatch } from '../core/log/recordPack';
import { chunksOf } from '../capture/fileChunks';
import type { ParseOutput } from '../core/records';
import { MAX_BATCHES_IN_FLIGHT, type ParseWorkerData, type ParseWorkerMessage } from './parseWorkerMessages';

/** Packed bytes of the first batch; each next one of the first megabyte doubles it. */
const FIRST_BATCH_BYTES = 16 * 1024;
/** From this size on, a batch is a chunk's (1 MB of log). */
const LATER_BATCH_BYTES = 512 * 1024;

async function parseFile(data: ParseWorkerData): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const inFlight = new Int32Array(data.inFlight);
  const parser = new LogStreamParser();
  const packer = new RecordPacker();
  // The first batches are small: the reader starts on the first records while the parser is
  // still cold (its first megabyte takes several times a later one's time).
  let batchBytes = FIRST_BATCH_BYTES;
  const add = (output: ParseOutput): void => {
    packer.add(output);
    if (batchBytes < LATER_BATCH_BYTES && packer.size >= batchBytes) {
      post('batch', 0);
      batchBytes *= 2;
    }
  };
  const post = (type: 'batch' | 'end', bytes: number): void => {
    const batch: PackedBatch = packer.take();
    const message: ParseWorkerMessage = { type, batch, bytes };
    port.postMessage(message, [batch.tags.buffer, batch.numbers.buffer]);
    if (type === 'end') return;
    // Waits while the reader is MAX_BATCHES_IN_FLIGHT behind (the next read runs meanwhile).
    for (let n = Atomics.add(inFlight, 0, 1) + 1; n >= MAX_BATCHES_IN_FLIGHT; n = Atomics.load(inFlight, 0))
      Atomics.wait(inFlight, 0, n);
  };
  try {
    for await (const chunk of chunksOf(data.fd, undefined, true)) {
      pushInPieces(parser, chunk, add);
      post('batch', chunk.length);
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message: ParseWorkerMessage = { type: 'error', code: e.code, message: e.message };
    port.postMessage(message);
    return;
  }
  packer.add(parser.end());
  post('end', 0);
}

void parseFile(workerData as ParseWorkerData);
