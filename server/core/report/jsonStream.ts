// `analyze --format json` written as the requests come, never held whole: the text of
// prettyJsonChunks(analysisJson(...)) (that is, JSON.stringify(value, null, 2)), byte for
// byte, as UTF-8 in chunks of about 1 MB. What a request's JSON holds is requestJson's
// (jsonReport.ts); each request is written by writeRequestJson, without its objects.
import type { AnalyzedRequest } from '../analysis/types';
import { ByteChunks } from './byteChunks';
import { prettyJsonChunks } from './jsonChunks';
import type { AnalysisJsonRest } from './jsonReport';
import { PrettyJsonBytes } from './prettyJsonBytes';
import { writeRequestJson } from './requestJsonBytes';

/** A chunk is handed out once it holds this much (a request's JSON is a few KB). */
const CHUNK_BYTES = 1 << 20;

const OPENING = ByteChunks.constant('{\n  "schema": 1,\n  "requests": [');
const REQUEST_START = ByteChunks.constant('\n    ');
const NEXT_REQUEST_START = ByteChunks.constant(',\n    ');

export class AnalysisJsonWriter {
  private readonly bytes: ByteChunks;
  private readonly json: PrettyJsonBytes;
  private written = 0;
  private opened = false;

  /**
   * @param emit receives the UTF-8 text in order, never a character split across two chunks
   *        (the document's opening is written with the first request or at end(), so nothing
   *        is emitted for an input that fails first)
   * @param chunkBytes how much text is gathered before it is emitted
   */
  constructor(
    private readonly emit: (chunk: Uint8Array) => void,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {
    this.bytes = new ByteChunks(chunkBytes + (chunkBytes >> 4));
    // A request sits in `requests` of the document: its members are indented 6 spaces.
    this.json = new PrettyJsonBytes(this.bytes, 2);
  }

  request(r: AnalyzedRequest): void {
    this.open();
    this.bytes.raw(this.written === 0 ? REQUEST_START : NEXT_REQUEST_START);
    writeRequestJson(this.json, r);
    this.written++;
    if (this.bytes.length >= this.chunkBytes) this.emit(this.bytes.take());
  }

  /** Closes `requests` and writes the rest of the document; the last text ends with `}` (no newline). */
  end(rest: AnalysisJsonRest): void {
    this.open();
    this.bytes.text(this.written === 0 ? ']' : '\n  ]');
    // prettyJsonChunks of the rest alone opens with `{\n`: here the rest continues the document.
    let first = true;
    for (const chunk of prettyJsonChunks(rest)) {
      this.bytes.text(first ? `,\n${chunk.slice(2)}` : chunk);
      first = false;
      if (this.bytes.length >= this.chunkBytes) this.emit(this.bytes.take());
    }
    if (this.bytes.length > 0) this.emit(this.bytes.take());
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.bytes.raw(OPENING);
  }
}
