// `analyze --format json` written as the requests come, never held whole: the text of
// prettyJsonChunks(analysisJson(...)) (that is, JSON.stringify(value, null, 2)), byte for
// byte. A request's JSON is requestJson's (the one place that says what it holds); requests
// are turned into text a batch at a time by one native JSON.stringify of the batch inside
// a `requests` array, which indents them as they sit in the document.
import type { AnalyzedRequest } from '../analysis/types';
import { prettyJsonChunks } from './jsonChunks';
import { requestJson, type AnalysisJsonRest, type RequestJson } from './jsonReport';

/** How `JSON.stringify({ requests: [...] }, null, 2)` opens and closes around the requests. */
const BATCH_OPEN = '{\n  "requests": [\n';
const BATCH_CLOSE = '\n  ]\n}';

export class AnalysisJsonWriter {
  private batch: RequestJson[] = [];
  private written = 0;
  private opened = false;

  /**
   * @param emit receives the text in order (the document's opening is emitted with the
   *        first request or at end(), so nothing is written for an input that fails first)
   */
  constructor(
    private readonly emit: (text: string) => void,
    private readonly batchSize = 128,
  ) {}

  request(r: AnalyzedRequest): void {
    this.batch.push(requestJson(r));
    if (this.batch.length >= this.batchSize) this.flush();
  }

  /** Requests written so far (those in the pending batch included). */
  get count(): number {
    return this.written + this.batch.length;
  }

  /** Closes `requests` and writes the rest of the document; the last text ends with `}` (no newline). */
  end(rest: AnalysisJsonRest): void {
    this.flush();
    this.open();
    this.emit(this.written === 0 ? ']' : '\n  ]');
    // prettyJsonChunks of the rest alone opens with `{\n`: here the rest continues the document.
    let first = true;
    for (const chunk of prettyJsonChunks(rest)) {
      this.emit(first ? `,\n${chunk.slice(2)}` : chunk);
      first = false;
    }
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.emit('{\n  "schema": 1,\n  "requests": [');
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.open();
    const text = JSON.stringify({ requests: this.batch }, null, 2);
    this.emit((this.written === 0 ? '\n' : ',\n') + text.slice(BATCH_OPEN.length, text.length - BATCH_CLOSE.length));
    this.written += this.batch.length;
    this.batch = [];
  }
}
