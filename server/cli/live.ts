// A live, refreshing per-stage phase table in the terminal, fed by a capture source
// through the same parser and analysis as the language server. Used by
// `stage-lens demo` (the simulator as a child process) and `stage-lens analyze --follow`.
import { LogStreamParser } from '../core/log';
import { StreamAnalysis } from '../core/analysis/streamAnalysis';
import { tableReport } from '../core/report/tableReport';
import type { CaptureSource, ChunkStream } from '../capture/source';
import { stageRolesOf } from '../core/stageRoles';
import { waitingLines } from '../core/report/liveWaiting';
import { findingsEnd, findingsFirst, fitFrame, fitLineStart, screenSize } from '../core/report/liveFrame';
import { terminalText } from '../core/textTable';
import { Interrupts } from './interrupts';
import { IdleFlush, idleWaitMs } from '../capture/idleFlush';
import { deployConfigReport } from './deployConfigOption';
import { noServerRequestYetText, serverNoteOf, unknownServerProblem } from '../core/analysis/serverWords';
import { sentenceCase } from '../core/sentenceCase';

/** The end of a source's stderr kept to show when it dies (its usage error, its traceback's end). */
const STDERR_TAIL_BYTES = 4096;

export interface LiveOptions {
  readonly source: CaptureSource;
  readonly title: string;
  /** Stop after this many seconds (null: until the source ends or Ctrl-C). */
  readonly durationSeconds: number | null;
  readonly refreshMs: number;
  readonly out: NodeJS.WriteStream;
  /** `demo`, `analyze`: who says it on stderr. */
  readonly command: string;
  /** Where a source that ended with an error has its stderr's end shown. */
  readonly err: NodeJS.WritableStream;
  /** Leave the first request after each server start out of the percentiles and findings (`--exclude-cold`). */
  readonly excludeCold?: boolean;
  /** The deploy config the log is read against (`--deploy-config`), checked and cited as `analyze` does. */
  readonly deployConfig?: string | null;
  /** Only the requests of this server of a merged log (`analyze --follow --server`). */
  readonly server?: string | null;
}

export async function runLive(options: LiveOptions): Promise<number> {
  // Findings name each stage with its role where the title or the source says the pipeline.
  const deployConfig = options.deployConfig ?? null;
  const roles = stageRolesOf(`${options.title} ${options.source.description} ${deployConfig ?? ''}`);
  const { mismatchOf, withEvidence } = deployConfigReport(deployConfig);
  /** Set for the final summary: the log is whole; live frames are early (Engine lines come before the first table). */
  let whole = false;
  const analysis = new StreamAnalysis({
    stageRoles: () => roles,
    live: () => !whole,
    excludeCold: options.excludeCold === true,
    ...(options.server === undefined || options.server === null ? {} : { server: options.server }),
  });
  const parsers = new Map<ChunkStream, LogStreamParser>();
  const tty = options.out.isTTY === true;
  const started = Date.now();
  /** When the source's first bytes arrived (null: none yet). */
  let firstOutputAt: number | null = null;
  let lastError: string | null = null;
  let exitCode = 0;

  let stderrTail = Buffer.alloc(0);
  /** The request count the last progress line said (a pipe gets a line only when it changes). */
  let saidCount = -1;

  const head = (final: boolean, now: number, width?: number): string => {
    const line = (title: string): string =>
      `${final ? 'Final summary' : 'Live'} · ${title} · ${((now - started) / 1000).toFixed(0)}s${lastError === null ? '' : ` · ${lastError}`}`;
    const whole = line(options.title);
    const over = width === undefined ? 0 : [...whole].length - width;
    if (over <= 0) return whole;
    // A long path gives up its start, not the file name and the clock after it; with fewer
    // than 8 of its characters left, the line is cut at its end as any other.
    const titleWidth = [...options.title].length - over;
    return titleWidth - 1 >= 8 ? line(fitLineStart(options.title, titleWidth)) : whole;
  };

  const report = (final: boolean, now: number, foldWidth?: number): string[] => {
    const snapshot = analysis.snapshot();
    const servers = analysis.serverCounts();
    // The server selected has no request (yet): the others' requests are what the log has so far.
    const otherServers = snapshot.requestCount === 0 ? unknownServerProblem(servers) : null;
    const serverNote = serverNoteOf(servers);
    // A final summary says what the whole log holds; a live frame may be early. A source that
    // ended with an error printed nothing to analyze: the advice for a log without stats would be false.
    const noRequestYet =
      snapshot.requestCount > 0
        ? null
        : final
          ? exitCode !== 0
            ? [`No request was read: ${options.title} ended (${lastError ?? 'an error'}) before printing one.`]
            : otherServers === null
              ? null
              : [`${sentenceCase(otherServers)}.`]
          : otherServers !== null && servers !== null && servers.outside > 0
            ? [noServerRequestYetText(servers)]
            : waitingLines((now - started) / 1000, firstOutputAt === null ? null : (now - firstOutputAt) / 1000);
    const mismatch = snapshot.requestCount > 0 ? mismatchOf(snapshot) : null;
    return tableReport(withEvidence(snapshot, mismatch), {
      source: options.source.description,
      stageRoles: analysis.stageRoles(),
      ...(mismatch === null ? {} : { inputNote: mismatch }),
      ...(serverNote === null ? {} : { windowNote: serverNote }),
      ...(noRequestYet === null ? {} : { noRequestYet }),
      ...(foldWidth === undefined ? {} : { foldWidth }),
    });
  };

  const renderLive = (): void => {
    const now = Date.now();
    if (tty) {
      // Redrawn in place, so it must fit: a wrapped line would push the phase table off the top.
      const screen = screenSize(options.out.columns, options.out.rows);
      const width = screen.width;
      const height = screen.height - 1;
      // Columns that do not fit fold into a second block where the screen has the rows for it
      // (the first finding still in view, and the line that says how many more the final summary
      // has); on a shorter screen they are cut instead.
      const folded = findingsFirst([head(false, now, width), ...report(false, now, width)]);
      const fits = findingsEnd(folded, 1) < height;
      const frame = fitFrame(
        fits ? folded : findingsFirst([head(false, now, width), ...report(false, now)]),
        width,
        height,
      );
      options.out.write('\x1b[H\x1b[2J' + terminalText(frame.join('\n')) + '\n');
      return;
    }
    // In a pipe or a file, frames would pile up: a line when the request count changes.
    const count = analysis.snapshot().requestCount;
    if (count === saidCount) return;
    saidCount = count;
    options.out.write(`${head(false, now)} · ${count} request${count === 1 ? '' : 's'} so far\n`);
  };

  const renderFinal = (): void => {
    const now = Date.now();
    options.out.write('\n' + terminalText(head(true, now) + '\n' + report(true, now).join('\n')) + '\n');
  };

  // Never a request whose call may still be printing, nor a stats record whose other record
  // may still come: only after the quiet the language server's capture waits too.
  const idleFlush = new IdleFlush(
    () => idleWaitMs([options.source]),
    () => analysis.flushIdle(parsers.values()),
  );

  const done = new Promise<void>((resolve) => {
    options.source.start({
      onData: (bytes, stream) => {
        firstOutputAt ??= Date.now();
        idleFlush.chunk();
        let parser = parsers.get(stream);
        if (parser === undefined) parsers.set(stream, (parser = new LogStreamParser()));
        analysis.ingest(parser.push(bytes));
        if (stream === 'stderr') {
          const tail = Buffer.concat([stderrTail, bytes]);
          stderrTail = tail.length > STDERR_TAIL_BYTES ? tail.subarray(tail.length - STDERR_TAIL_BYTES) : tail;
        }
      },
      onStatus: (status, detail) => {
        if (status === 'error' || status === 'crashed') {
          lastError = detail;
          exitCode = 1;
        }
        if (status === 'exited' || status === 'crashed' || status === 'error' || status === 'stopped') {
          resolve();
        }
      },
      onRestart: (stream) => {
        // A new file, counted from its line 1: what the old one left unfinished ends with it.
        const parser = parsers.get(stream);
        if (parser !== undefined) analysis.ingest(parser.end());
        parsers.delete(stream);
      },
      onNotice: (message) => {
        // `$ …` is the launched command line (shown in the source line), not a problem.
        if (!message.startsWith('$ ')) lastError = message;
      },
    });
  });

  const timer = setInterval(renderLive, options.refreshMs);
  // Cleared once the run ends, so that a source that ends early ends the command at once.
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline =
    options.durationSeconds === null
      ? null
      : new Promise<void>((r) => (deadlineTimer = setTimeout(r, options.durationSeconds! * 1000)));
  const interrupts = new Interrupts(['SIGINT']);
  await Promise.race([done, interrupts.stopped, ...(deadline === null ? [] : [deadline])]);
  clearInterval(timer);
  idleFlush.dispose();
  clearTimeout(deadlineTimer);
  interrupts.dispose();
  // Also after an error: a followed file is polled again after one (it may become readable), which would keep the process alive.
  await options.source.stop();
  for (const parser of parsers.values()) analysis.ingest(parser.end());
  analysis.flush();
  whole = true;
  renderFinal();
  // A server the whole log has no request of: a usage problem, as analyze without --follow says it.
  const serverProblem = unknownServerProblem(analysis.serverCounts());
  if (exitCode === 0 && serverProblem !== null) {
    options.err.write(terminalText(`stage-lens ${options.command}: ${serverProblem}\n`));
    return 2;
  }
  // Why it died, in its own words (a usage error, a traceback's end).
  if (exitCode !== 0) {
    const said = stderrTail.toString('utf8').trimEnd();
    options.err.write(
      `stage-lens ${options.command}: ${options.title} ${lastError ?? 'ended with an error'}${said === '' ? '' : `; its stderr ends with:\n${said}`}\n`,
    );
  }
  return exitCode;
}
