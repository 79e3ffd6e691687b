// A live, refreshing per-stage phase table in the terminal, fed by a capture source
// through the same parser and analysis as the language server. Used by
// `stage-lens demo` (the simulator as a child process) and `stage-lens analyze --follow`.
import { LogStreamParser } from '../core/log';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import { tableReport } from '../core/report/tableReport';
import type { CaptureSource, ChunkStream } from '../capture/source';
import { stageRolesOf } from '../core/stageRoles';
import { waitingLines } from '../core/report/liveWaiting';

export interface LiveOptions {
  readonly source: CaptureSource;
  readonly title: string;
  /** Stop after this many seconds (null: until the source ends or Ctrl-C). */
  readonly durationSeconds: number | null;
  readonly refreshMs: number;
  readonly out: NodeJS.WriteStream;
}

export async function runLive(options: LiveOptions): Promise<number> {
  // Findings name each stage with its role where the title or the source says the pipeline.
  const roles = stageRolesOf(`${options.title} ${options.source.description}`);
  const analysis = new StreamAnalysis({ stageRoles: () => roles });
  const parsers = new Map<ChunkStream, LogStreamParser>();
  const tty = options.out.isTTY === true;
  const started = Date.now();
  /** When the source's first bytes arrived (null: none yet). */
  let firstOutputAt: number | null = null;
  let ended = false;
  let lastError: string | null = null;
  let exitCode = 0;

  const render = (final: boolean): void => {
    const snapshot = analysis.snapshot();
    const now = Date.now();
    const elapsed = ((now - started) / 1000).toFixed(0);
    const head = `${final ? 'Final summary' : 'Live'} · ${options.title} · ${elapsed}s${lastError === null ? '' : ` · ${lastError}`}`;
    // A final summary says what the whole log holds; a live frame may be early.
    const waiting =
      final || snapshot.requestCount > 0
        ? null
        : waitingLines((now - started) / 1000, firstOutputAt === null ? null : (now - firstOutputAt) / 1000);
    const body = tableReport(snapshot, {
      source: options.source.description,
      stageRoles: analysis.stageRoles(),
      ...(waiting === null ? {} : { noRequestYet: waiting }),
    }).join('\n');
    // On a terminal, redraw in place; in a pipe, print a frame per refresh.
    options.out.write((tty && !final ? '\x1b[H\x1b[2J' : '\n') + head + '\n' + body + '\n');
  };

  const done = new Promise<void>((resolve) => {
    options.source.start({
      onData: (bytes, stream) => {
        firstOutputAt ??= Date.now();
        let parser = parsers.get(stream);
        if (parser === undefined) parsers.set(stream, (parser = new LogStreamParser()));
        analysis.ingest(parser.push(bytes));
      },
      onStatus: (status, detail) => {
        if (status === 'error' || status === 'crashed') {
          lastError = detail;
          exitCode = 1;
        }
        if (status === 'exited' || status === 'crashed' || status === 'error' || status === 'stopped') {
          ended = true;
          resolve();
        }
      },
      onNotice: (message) => {
        // `$ …` is the launched command line (shown in the source line), not a problem.
        if (!message.startsWith('$ ')) lastError = message;
      },
    });
  });

  const timer = setInterval(() => {
    // Never a request whose table is still being printed (see StreamAnalysis.flushIdle).
    analysis.flushIdle(parsers.values());
    render(false);
  }, options.refreshMs);
  const deadline =
    options.durationSeconds === null ? null : new Promise<void>((r) => setTimeout(r, options.durationSeconds! * 1000));
  const interrupted = new Promise<void>((r) => process.once('SIGINT', () => r()));
  await Promise.race([done, interrupted, ...(deadline === null ? [] : [deadline])]);
  clearInterval(timer);
  if (!ended) await options.source.stop();
  for (const parser of parsers.values()) analysis.ingest(parser.end());
  analysis.flush();
  render(true);
  return exitCode;
}
