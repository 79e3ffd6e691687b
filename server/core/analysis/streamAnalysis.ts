// The whole analysis of one stream of records, incremental: records go in as the parser
// yields them; requests, per-stage summaries and findings are available at any time.
// Used by the CLI (one pass over a file) and by live sessions alike.
import type { EngineStatsRecord, LogRecord, OverallSummaryRecord, ParseOutput, ParseProblem } from '../records';
import { FindingsBuilder } from './findings';
import { RequestAssembler } from './requestAssembler';
import { StageSummaryBuilder } from './stageSummary';
import type { AnalyzedRequest, Finding, StageSummary } from './types';

export interface AnalysisSnapshot {
  readonly requests: readonly AnalyzedRequest[];
  readonly stages: readonly StageSummary[];
  /** Per stage and replica, only for stages seen on more than one replica. */
  readonly replicas: readonly StageSummary[];
  readonly findings: readonly Finding[];
  readonly problems: readonly ParseProblem[];
  readonly overallSummaries: readonly OverallSummaryRecord[];
  /** The latest periodic line per engine. */
  readonly engineStats: readonly EngineStatsRecord[];
  readonly boots: number;
  readonly legacyRecords: number;
}

export interface StreamAnalysisOptions {
  /** Leave cold requests (first after a boot) out of the stage summaries; they stay in `requests` and findings. */
  readonly excludeCold?: boolean;
  /** Called for each request as it is finalized. */
  readonly onRequest?: (request: AnalyzedRequest) => void;
}

export class StreamAnalysis {
  private readonly assembler = new RequestAssembler();
  private readonly summaries = new StageSummaryBuilder();
  private readonly findingsBuilder = new FindingsBuilder();
  private readonly requestList: AnalyzedRequest[] = [];
  private readonly problemList: ParseProblem[] = [];
  private readonly overall: OverallSummaryRecord[] = [];
  private readonly engines = new Map<string, EngineStatsRecord>();
  private bootCount = 0;
  private legacyCount = 0;

  constructor(private readonly options: StreamAnalysisOptions = {}) {}

  /** Feeds one parser output; returns the requests it finalized. */
  ingest(output: ParseOutput): AnalyzedRequest[] {
    this.problemList.push(...output.problems);
    const done: AnalyzedRequest[] = [];
    for (const record of output.records) done.push(...this.addRecord(record));
    return done;
  }

  /** Finalizes the request still open (end of input, or the stream went idle). */
  flush(): AnalyzedRequest[] {
    return this.accept(this.assembler.flush());
  }

  get requestCount(): number {
    return this.requestList.length;
  }

  get problemCount(): number {
    return this.problemList.length;
  }

  /** The requests so far (the live list; do not modify). */
  get requests(): readonly AnalyzedRequest[] {
    return this.requestList;
  }

  /** Stage summaries and findings only (what a live view refreshes), request ids capped per finding. */
  summary(maxRequestIds = 200): { stages: StageSummary[]; findings: Finding[] } {
    const stages = this.summaries.stages();
    return { stages, findings: this.findingsBuilder.findings(stages, maxRequestIds) };
  }

  snapshot(): AnalysisSnapshot {
    const stages = this.summaries.stages();
    return {
      requests: this.requestList,
      stages,
      replicas: this.summaries.replicas(),
      findings: this.findingsBuilder.findings(stages),
      problems: this.problemList,
      overallSummaries: this.overall,
      engineStats: [...this.engines.values()],
      boots: this.bootCount,
      legacyRecords: this.legacyCount,
    };
  }

  private addRecord(record: LogRecord): AnalyzedRequest[] {
    if (record.kind === 'overallSummary') this.overall.push(record);
    else if (record.kind === 'engineStats') this.engines.set(record.engine, record);
    else if (record.kind === 'legacyDict') this.legacyCount += 1;
    const done = this.assembler.add(record);
    if (record.kind === 'bootMarker') this.bootCount = this.assembler.bootNumber;
    return this.accept(done);
  }

  private accept(requests: AnalyzedRequest[]): AnalyzedRequest[] {
    for (const request of requests) {
      this.requestList.push(request);
      if (!(this.options.excludeCold === true && request.cold)) this.summaries.add(request);
      this.findingsBuilder.add(request);
      this.options.onRequest?.(request);
    }
    return requests;
  }
}
