// A server log read for a comparison: bytes in (one parser per captured stream, as a
// session records them), run samples and findings out. Unlike StreamAnalysis it keeps
// no request and builds no per-field summaries: a comparison needs only the samples of
// its metrics, and two 100k-request logs must be compared in seconds.
import { FindingsBuilder } from '../analysis/findings';
import { modelOfBoot } from '../analysis/bootPipelines';
import { RequestAssembler } from '../analysis/requestAssembler';
import { LegacyRequestReader, mayPrecedeTables } from '../analysis/legacyRequests';
import type { AnalyzedRequest } from '../analysis/types';
import { LogStreamParser } from '../log';
import { eachDecodePiece } from '../log/lines';
import type { ParseOutput, ParseProblem } from '../records';
import { RunSamplesBuilder, withFindings } from './runSamples';
import type { RunBoot, RunSamples, RunServer } from './types';
import type { BootCounts, ServerCounts } from '../analysis/types';
import { isStatsTableAtDebug } from '../analysis/tablesMissing';
import { requestScopeWords } from '../analysis/requestScope';
import { ServerSelection } from '../analysis/serverSelection';
import { ServerBootModels } from '../analysis/serverPipelines';

export class LogRunReader {
  private readonly parsers = new Map<string, LogStreamParser>();
  private readonly assembler = new RequestAssembler();
  private readonly findings: FindingsBuilder;
  private readonly samples: RunSamplesBuilder;
  private problems = 0;
  /** Made at the first legacy dict: a log in the current format never builds one. */
  private legacy: LegacyRequestReader | null = null;
  /** Requests per boot, before the selection: the boots a selection may name. */
  private readonly bootRequests = new Map<number, number>();
  private bootOutside = 0;
  /** Requests per boot of each server ('' for those of no server's tag), before any selection: the servers and boots a pick may name. */
  private readonly serverBoots = new Map<string, Map<number, number>>();
  /** The server selected, counting the requests of the boot selected per server. */
  private readonly selection: ServerSelection;
  private overallSummaryTables = 0;
  private debugLines = false;
  /** A stats table was printed at DEBUG: stage-tables-missing says the stage tables were cut out (tablesMissing.ts). */
  private statsTablesAtDebug = false;
  /** The model each boot's start-up lines named first. */
  private readonly bootModels = new Map<number, string>();
  /** The same, per server of a merged log (each numbers its own boots, and may serve its own model). */
  private readonly serverBootModels = new ServerBootModels();

  /**
   * `boot`: only the requests of this server boot (numbered as StreamAnalysis numbers them); null:
   * every boot. `server`: only those of this server of a merged log (its lines' tag); null: every one.
   */
  constructor(
    excludeCold: boolean,
    private readonly boot: number | null = null,
    server: string | null = null,
  ) {
    this.selection = new ServerSelection(server);
    this.samples = new RunSamplesBuilder(excludeCold);
    // Cold starts left out of the quantiles are out of the findings too (as in analyze).
    this.findings = new FindingsBuilder(excludeCold);
    if (excludeCold) this.findings.nameScope(requestScopeWords({ excludeCold }));
  }

  /** Feeds bytes of one stream (`log` for a plain file; stdout/stderr/file for a session). */
  push(bytes: Uint8Array | string, stream = 'log'): void {
    const parser = this.parsers.get(stream) ?? this.startStream(stream);
    // Records are taken one decode piece at a time: records of a whole 1 MB chunk would
    // outlive several young-generation collections before being read (measured ~4% of a
    // 100k-request read).
    if (typeof bytes === 'string') this.ingest(parser.push(bytes));
    else eachDecodePiece(bytes, (piece) => this.ingest(parser.push(piece)));
  }

  private startStream(stream: string): LogStreamParser {
    // With the [Overall Summary] rows: the tail's preprocess part reads input_preprocess_time_ms.
    const parser = new LogStreamParser();
    this.parsers.set(stream, parser);
    return parser;
  }

  /** The input's gzip data broke off after what was read (placed at the last line read of the log). */
  brokeOff(damage: ParseProblem): void {
    const parser = this.parsers.get('log');
    this.ingest({ records: [], problems: [{ ...damage, line: parser?.lastLine ?? 1 }] });
  }

  get problemCount(): number {
    return this.problems;
  }

  /** With a boot selected: it, the requests of other boots (left out) and the boots the log has; null without one. */
  bootCounts(): BootCounts | null {
    if (this.boot === null) return null;
    const boots = [...this.bootRequests].sort((a, b) => a[0] - b[0]).map(([boot, requests]) => ({ boot, requests }));
    return { boot: this.boot, outside: this.bootOutside, boots };
  }

  /** With a server selected: it, the requests of other servers (left out) and the servers the log has; null without one. */
  serverCounts(): ServerCounts | null {
    const counts = this.selection.counts();
    // With a boot selected too, the servers counted are that boot's (each server numbers its own).
    return counts === null || this.boot === null ? counts : { ...counts, boot: this.boot };
  }

  /**
   * The boots that gave a request, in order, with the model each named (every boot, selected or
   * not); with a server selected, that server's boots (each server of a merged log numbers its own).
   */
  boots(): RunBoot[] {
    const server = this.selection.server;
    const perBoot = server === null ? this.bootRequests : (this.serverBoots.get(server) ?? new Map<number, number>());
    return [...perBoot]
      .sort((a, b) => a[0] - b[0])
      .map(([boot, requests]) => ({
        boot,
        requests,
        model:
          server === null
            ? modelOfBoot(this.bootModels, boot, perBoot.has(0))
            : this.serverBootModels.of(server, boot, perBoot.has(0)),
      }));
  }

  /** Every server of a merged log that gave a request, by name, with its requests (selected or not), and the requests of no server's tag. */
  servers(): { servers: RunServer[]; untagged: number } {
    const servers: RunServer[] = [];
    for (const [server, boots] of this.serverBoots) {
      if (server === '') continue;
      let requests = 0;
      for (const n of boots.values()) requests += n;
      servers.push({ server, requests });
    }
    servers.sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
    let untagged = 0;
    for (const n of this.serverBoots.get('')?.values() ?? []) untagged += n;
    return { servers, untagged };
  }

  /** `rolesOf`: the stage roles of the run these samples are (runRoles.ts), which name its stages in its findings. */
  end(rolesOf: (samples: RunSamples) => Readonly<Record<string, string>> = () => ({})): RunSamples {
    for (const parser of this.parsers.values()) this.ingest(parser.end());
    this.parsers.clear();
    this.accept(this.assembler.flush());
    if (this.legacy !== null) this.accept(this.legacy.release());
    const finished = this.samples.finish([]);
    const samples = {
      ...finished,
      ...(this.overallSummaryTables === 0 ? {} : { overallSummaryTables: this.overallSummaryTables }),
      ...(this.debugLines ? { debugLines: true as const } : {}),
    };
    // Stage summaries only sharpen the cold-start message; the comparison uses code, stage and count.
    return withFindings(samples, this.findings.findings([], Number.POSITIVE_INFINITY, rolesOf(samples)));
  }

  private ingest(output: ParseOutput): void {
    this.problems += output.problems.length;
    this.findings.addProblems(output.problems);
    if (output.debugLines === true && !this.debugLines) {
      this.debugLines = true;
      this.findings.debugLinesRead();
    }
    for (const record of output.records) {
      if (!this.statsTablesAtDebug && isStatsTableAtDebug(record)) {
        this.statsTablesAtDebug = true;
        this.findings.statsTablesAtDebugRead();
      }
      // Counted, and read by the assembler as any record (the tail's preprocess part reads its rows).
      if (
        record.kind === 'overallSummary' &&
        this.inBoot(this.assembler.bootOf(record.header?.source)) &&
        this.inServer(record.header?.source)
      ) {
        this.overallSummaryTables += 1;
        this.findings.overallTablesRead(this.overallSummaryTables);
      }
      if (record.kind === 'servedModel') {
        const boot = this.assembler.bootOf(record.header?.source);
        if (!this.bootModels.has(boot)) this.bootModels.set(boot, record.model);
        const server = record.header?.source;
        if (server !== undefined && server !== null) this.serverBootModels.note(server, boot, record.model);
        // With a boot selected, its own model names the stages (another boot's may be another pipeline).
        if (this.inBoot(boot) && this.inServer(record.header?.source)) this.samples.servedModel(record.model);
      } else if (record.kind !== 'legacyDict') this.accept(this.assembler.add(record));
      else {
        // A request_level_metrics dict of the format before February 2026 is a whole request (legacyRequests.ts).
        const assembler = this.assembler;
        const requests = (this.legacy ??= new LegacyRequestReader((key) => assembler.placeLegacyRequest(key))).read(
          record,
        );
        if (!mayPrecedeTables(record) || requests.length !== 1) this.accept(requests);
        else {
          // Its tables may come next (vllm-omni#891's branch): one request with them.
          const done: AnalyzedRequest[] = [];
          assembler.holdDictInto(record.header, record.requestId as string, requests[0], done);
          this.accept(done);
        }
      }
    }
  }

  private inBoot(boot: number): boolean {
    return this.boot === null || this.boot === boot;
  }

  private inServer(source: string | null | undefined): boolean {
    return this.selection.has(source);
  }

  private accept(requests: readonly AnalyzedRequest[]): void {
    for (const request of requests) {
      this.bootRequests.set(request.boot, (this.bootRequests.get(request.boot) ?? 0) + 1);
      const server = request.server ?? '';
      let boots = this.serverBoots.get(server);
      if (boots === undefined) this.serverBoots.set(server, (boots = new Map<number, number>()));
      boots.set(request.boot, (boots.get(request.boot) ?? 0) + 1);
      if (!this.inBoot(request.boot)) {
        this.bootOutside += 1;
        continue;
      }
      if (!this.selection.keep(request)) continue;
      this.samples.add(request);
      this.findings.add(request);
    }
  }
}
