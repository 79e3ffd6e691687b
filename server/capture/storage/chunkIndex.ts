// One line of a session's chunks.idx: "<stream> <bytes> <capturedAtMs>\n", written after
// the chunk's bytes were appended to <stream>.log; 0 bytes marks the stream starting again
// from its first line (StoredChunk.restart). Pure reading of one line.
import type { ChunkStream } from '../source';

export const STREAMS: readonly ChunkStream[] = ['stdout', 'stderr', 'file'];

export interface IndexEntry {
  readonly stream: ChunkStream;
  readonly bytes: number;
  readonly capturedAt: number;
}

function isDigits(s: string): boolean {
  if (s.length === 0 || s.length > 16) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The entry a line names, or null when the line is not one (corrupt). */
export function parseIndexLine(line: string): IndexEntry | null {
  const a = line.indexOf(' ');
  const b = a < 0 ? -1 : line.indexOf(' ', a + 1);
  if (b < 0 || line.indexOf(' ', b + 1) >= 0) return null;
  const stream = line.slice(0, a);
  const bytes = line.slice(a + 1, b);
  const time = line.slice(b + 1);
  if (!(STREAMS as readonly string[]).includes(stream) || !isDigits(bytes) || !isDigits(time)) return null;
  return { stream: stream as ChunkStream, bytes: Number(bytes), capturedAt: Number(time) };
}

/** A corrupt line as a message can quote it: at most 40 characters, control characters shown as `?`. */
export function quoteLine(line: string): string {
  const cut = line.length > 40 ? `${line.slice(0, 40)}…` : line;
  return JSON.stringify(cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'));
}

export function indexLine(entry: IndexEntry): string {
  return `${entry.stream} ${entry.bytes} ${entry.capturedAt}\n`;
}
