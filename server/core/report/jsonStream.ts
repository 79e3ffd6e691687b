// `analyze --format json` written as the requests come, never held whole: the text of
// jsonChunks(analysisJson(...), layout), byte for byte, as UTF-8 in chunks of about 1 MB.
// What a request's JSON holds is requestJson's (jsonReport.ts); each request is written by
// writeRequestJson, without its objects.
import type { AnalyzedRequest } from '../analysis/types';
import { ByteChunks, type ChunkSink, type Piece } from './byteChunks';
import { jsonChunks, type JsonLayout } from './jsonChunks';
import type { AnalysisJsonRest } from './jsonReport';
import { JsonBytes } from './jsonBytes';
import { writeRequestJson } from './requestJsonBytes';

/** A chunk is handed out once it holds this much (a request's JSON is a few KB). */
const CHUNK_BYTES = 1 << 20;

/** How each layout opens the document, starts a request, and closes `requests`. */
const FRAME: Record<JsonLayout, { opening: Piece; first: Piece; next: Piece; closeRequests: string }> = {
  compact: {
    opening: ByteChunks.constant('{\n"schema":1,\n"requests":['),
    first: ByteChunks.constant('\n'),
    next: ByteChunks.constant(',\n'),
    closeRequests: '\n]',
  },
  indented: {
    opening: ByteChunks.constant('{\n  "schema": 1,\n  "requests": ['),
    first: ByteChunks.constant('\n    '),
    next: ByteChunks.constant(',\n    '),
    closeRequests: '\n  ]',
  },
};

export class AnalysisJsonWriter {
  private readonly bytes: ByteChunks;
  private readonly json: JsonBytes;
  private written = 0;
  private opened = false;

  /**
   * @param emit receives the UTF-8 text in order, never a character split across two chunks
   *        (the document's opening is written with the first request or at end(), so nothing
   *        is emitted for an input that fails first); it calls `written` once the chunk's bytes
   *        are out, and the chunk's memory is then used again
   * @param layout `compact` (one request per line) or `indented` (JSON.stringify(..., null, 2))
   * @param chunkBytes how much text is gathered before it is emitted
   */
  constructor(
    private readonly emit: ChunkSink,
    private readonly layout: JsonLayout = 'compact',
    private readonly chunkBytes = CHUNK_BYTES,
  ) {
    this.bytes = new ByteChunks(chunkBytes + (chunkBytes >> 4));
    // Indented, a request sits in `requests` of the document: its members are indented 6 spaces.
    this.json = new JsonBytes(this.bytes, layout, 2);
  }

  request(r: AnalyzedRequest): void {
    this.open();
    const frame = FRAME[this.layout];
    this.bytes.raw(this.written === 0 ? frame.first : frame.next);
    writeRequestJson(this.json, r);
    this.written++;
    if (this.bytes.length >= this.chunkBytes) this.bytes.takeTo(this.emit);
  }

  /** Closes `requests` and writes the rest of the document; the last text ends with `}` (no newline). */
  end(rest: AnalysisJsonRest): void {
    this.open();
    const frame = FRAME[this.layout];
    this.bytes.text(this.written === 0 ? ']' : frame.closeRequests);
    let first = true;
    for (const chunk of jsonChunks(rest, this.layout)) {
      // The rest alone opens with `{`: here it continues the document.
      this.bytes.text(first ? `,${chunk.slice(1)}` : chunk);
      first = false;
      if (this.bytes.length >= this.chunkBytes) this.bytes.takeTo(this.emit);
    }
    if (this.bytes.length > 0) this.bytes.takeTo(this.emit);
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.bytes.raw(FRAME[this.layout].opening);
  }
}
