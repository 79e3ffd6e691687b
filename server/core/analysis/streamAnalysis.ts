// The whole analysis of one stream of records, incremental: records go in as the parser
// yields them; requests, per-stage summaries and findings are available at any time.
// Used by the CLI (one pass over a file) and by live sessions alike.
import type { EngineStatsRecord, LogRecord, OverallSummaryRecord, ParseOutput, ParseProblem } from '../records';
import { EdgeSummaryBuilder } from './edgeSummary';
import { FindingsBuilder } from './findings';
import { RequestAssembler } from './requestAssembler';
import { RequestStore } from './requestStore';
import { StageSummaryBuilder } from './stageSummary';
import type { AnalyzedRequest, EdgeSummary, Finding, StageSummary } from './types';

const MAX_OVERALL_SUMMARIES = 16;

export interface AnalysisSnapshot {
  /** Every request, materialized from the packed store on first access (a live view should page through `StreamAnalysis.requests` instead). */
  readonly requests: readonly AnalyzedRequest[];
  readonly stages: readonly StageSummary[];
  /** Per stage and replica, only for stages seen on more than one replica. */
  readonly replicas: readonly StageSummary[];
  /** Per transfer edge, over the same requests as the stage summaries. */
  readonly edges: readonly EdgeSummary[];
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
  /** Keep each request's [Overall Summary] in the store (default true; a few slots per request). */
  readonly keepOverallSummaries?: boolean;
}

export class StreamAnalysis {
  private readonly assembler = new RequestAssembler();
  private readonly summaries = new StageSummaryBuilder();
  private readonly edgeSummaries = new EdgeSummaryBuilder();
  private readonly findingsBuilder = new FindingsBuilder();
  private readonly store: RequestStore;
  private readonly problemList: ParseProblem[] = [];
  private readonly overall: OverallSummaryRecord[] = [];
  private readonly engines = new Map<string, EngineStatsRecord>();
  private bootCount = 0;
  private legacyCount = 0;

  constructor(private readonly options: StreamAnalysisOptions = {}) {
    this.store = new RequestStore({ keepOverallSummaries: options.keepOverallSummaries !== false });
  }

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
    return this.store.length;
  }

  get problemCount(): number {
    return this.problemList.length;
  }

  /** The requests so far (live: grows as requests arrive). */
  get requests(): RequestStore {
    return this.store;
  }

  /** Stage summaries and findings only (what a live view refreshes), request ids capped per finding. */
  summary(maxRequestIds = 200): { stages: StageSummary[]; edges: EdgeSummary[]; findings: Finding[] } {
    const stages = this.summaries.stages();
    return { stages, edges: this.edgeSummaries.edges(), findings: this.findingsBuilder.findings(stages, maxRequestIds) };
  }

  snapshot(): AnalysisSnapshot {
    const stages = this.summaries.stages();
    const store = this.store;
    let requests: AnalyzedRequest[] | null = null;
    let replicas: StageSummary[] | null = null;
    const summaries = this.summaries;
    const included = (): Iterable<AnalyzedRequest> => this.includedRequests();
    return {
      get requests(): readonly AnalyzedRequest[] {
        return (requests ??= [...store]);
      },
      stages,
      get replicas(): readonly StageSummary[] {
        return (replicas ??= summaries.replicas(included()));
      },
      edges: this.edgeSummaries.edges(),
      findings: this.findingsBuilder.findings(stages),
      problems: this.problemList,
      overallSummaries: this.overall,
      engineStats: [...this.engines.values()],
      boots: this.bootCount,
      legacyRecords: this.legacyCount,
    };
  }

  /** The requests the stage summaries are over. */
  private *includedRequests(): Iterable<AnalyzedRequest> {
    for (const request of this.store) if (!(this.options.excludeCold === true && request.cold)) yield request;
  }

  private addRecord(record: LogRecord): AnalyzedRequest[] {
    if (record.kind === 'overallSummary') {
      // Printed with every request: keep the latest few, not one per request.
      if (this.overall.length >= MAX_OVERALL_SUMMARIES) this.overall.shift();
      this.overall.push(record);
    }
    else if (record.kind === 'engineStats') this.engines.set(record.engine, record);
    else if (record.kind === 'legacyDict') this.legacyCount += 1;
    const done = this.assembler.add(record);
    if (record.kind === 'bootMarker') this.bootCount = this.assembler.bootNumber;
    return this.accept(done);
  }

  private accept(requests: AnalyzedRequest[]): AnalyzedRequest[] {
    for (const request of requests) {
      this.store.add(request);
      if (!(this.options.excludeCold === true && request.cold)) {
        this.summaries.add(request);
        this.edgeSummaries.add(request);
      }
      this.findingsBuilder.add(request);
      this.options.onRequest?.(request);
    }
    return requests;
  }
}
