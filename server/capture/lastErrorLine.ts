// The last error-looking line a launched server wrote to stderr (`torch.OutOfMemoryError: CUDA
// out of memory ...`), so a crash says why and not only its exit code. Colour codes removed,
// other control characters made visible (it is log text shown in a notification), capped.
import { stripAnsi } from '../core/log/prefix';
import { withVisibleControls } from '../core/textTable';

/** Longest line kept whole; longer ones are cut with an ellipsis. */
const MAX_SHOWN = 300;
/** A line longer than this is not read to its end (a binary blob on stderr must not grow memory). */
const MAX_LINE = 8192;
const MARKERS = ['Error', 'Exception', 'ERROR', 'CRITICAL', 'FATAL', 'error:', 'Killed'];

const looksLikeError = (line: string): boolean => MARKERS.some((m) => line.includes(m));

export class LastErrorLine {
  private partial = '';
  private last: string | null = null;
  private readonly decoder = new TextDecoder('utf-8');

  push(chunk: Buffer): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.partial = (lines.pop() ?? '').slice(-MAX_LINE);
    for (const line of lines) this.take(line);
  }

  /** The last error-looking line, the unfinished last line included; null when none. */
  line(): string | null {
    if (this.partial !== '') {
      this.take(this.partial);
      this.partial = '';
    }
    return this.last;
  }

  private take(raw: string): void {
    const line = withVisibleControls(stripAnsi(raw.replace(/\r$/, ''), false).trim());
    if (line === '' || !looksLikeError(line)) return;
    this.last = line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line;
  }
}
