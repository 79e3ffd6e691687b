// Progress of a long read on a terminal: `stage-lens analyze big.log` on a TTY shows how far
// it is on stderr, one line rewritten in place, gone when the read ends. Nothing is shown when
// stderr is not a terminal (a pipe, a file, CI) or when the read is over within a second.
import { statSync } from 'node:fs';

export interface ProgressLine {
  stop(): void;
}

/** A read whose progress is shown: the bytes read so far, and its end (a file's read stream, or the parse worker's). */
export interface ProgressSource {
  readonly bytesRead: number;
  once(event: 'end' | 'close' | 'error', listener: () => void): unknown;
}

const MB = 1024 * 1024;

/** Starts reporting `input`'s reading of `file` on `out` (stderr) if `out` is a terminal. */
export function readProgress(
  input: ProgressSource,
  file: string,
  out: NodeJS.WriteStream = process.stderr,
): ProgressLine | null {
  if (!out.isTTY) return null;
  let total = 0;
  try {
    total = statSync(file).size;
  } catch {
    return null; // the read reports the error
  }
  // Overridable so that a test sees the line on a small file.
  const delayMs = Number(process.env.STAGE_LENS_PROGRESS_DELAY_MS ?? 1000);
  let shown = false;
  const draw = (): void => {
    const read = input.bytesRead;
    const pct = total > 0 ? ` (${Math.min(100, Math.floor((read / total) * 100))}%)` : '';
    out.write(`\r\x1b[Kstage-lens: reading ${file}: ${(read / MB).toFixed(1)} of ${(total / MB).toFixed(1)} MB${pct}`);
    shown = true;
  };
  let timer: NodeJS.Timeout | undefined;
  const start = setTimeout(() => {
    draw();
    timer = setInterval(draw, 250);
  }, delayMs);
  const stop = (): void => {
    clearTimeout(start);
    clearInterval(timer);
    if (shown) out.write('\r\x1b[K');
    shown = false;
  };
  // Gone before the report is printed (stdout may be the same terminal).
  input.once('end', stop);
  input.once('close', stop);
  input.once('error', stop);
  return { stop };
}
