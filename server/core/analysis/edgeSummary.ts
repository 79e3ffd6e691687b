// Per transfer edge distributions, over measured values only: each TransferEdgeStats field
// and [OmniTiming]'s send time. A hidden row, a request without a table column and a
// notRecorded `0.00ms` are counted by state, never averaged in as 0, and so is a printed
// number that is not a time (negative, nan, inf). Incremental, like the stage summaries.
import { SampleSet } from './sampleSet';
import { unrecordedReason } from './unrecordedValues';
import type {
  AnalyzedRequest,
  Distribution,
  EdgeFieldStates,
  EdgeSummary,
  RequestTransfer,
  TransferTxState,
} from './types';

/** Distinct edges kept per analysis (garbage input can name many). */
const MAX_EDGES = 1024;
/** Distinct fields kept per edge. */
const MAX_FIELDS = 256;

interface FieldCounts {
  readonly values: SampleSet;
  measured: number;
  notMeasured: number;
  notRecorded: number;
}

class EdgeAccumulator {
  requestCount = 0;
  tableCount = 0;
  readonly fields = new Map<string, FieldCounts>();
  readonly tx = new SampleSet();
  readonly txStates: Record<TransferTxState, number> = { measured: 0, notRecorded: 0, absent: 0 };

  constructor(
    readonly edge: string,
    readonly fromStage: number | null,
    readonly toStage: number | null,
  ) {}

  add(transfer: RequestTransfer): void {
    this.requestCount += 1;
    if (transfer.tablePrinted) this.tableCount += 1;
    for (const name in transfer.fields) {
      const cell = transfer.fields[name];
      let counts = this.fields.get(name);
      if (counts === undefined) {
        if (this.fields.size >= MAX_FIELDS) continue;
        this.fields.set(name, (counts = { values: new SampleSet(), measured: 0, notMeasured: 0, notRecorded: 0 }));
      }
      if (cell.state === 'measured' && unrecordedReason(name, cell.value) !== null) {
        // Below zero, nan or inf: not a time (unrecordedValues.ts), counted apart.
        counts.notRecorded += 1;
      } else if (cell.state === 'measured') {
        counts.measured += 1;
        counts.values.add(cell.value);
      } else {
        counts.notMeasured += 1;
      }
    }
    this.txStates[transfer.omniTimingTxState] += 1;
    const ms = transfer.omniTimingTxMs;
    if (transfer.omniTimingTxState === 'measured' && ms !== null && Number.isFinite(ms)) this.tx.add(ms);
  }

  trim(): void {
    for (const counts of this.fields.values()) counts.values.trim();
    this.tx.trim();
  }

  summary(): EdgeSummary {
    const fields: Record<string, Distribution> = {};
    const fieldStates: Record<string, EdgeFieldStates> = {};
    for (const [name, counts] of [...this.fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const d = counts.values.distribution();
      if (d !== null) fields[name] = d;
      fieldStates[name] = {
        measured: counts.measured,
        notMeasured: counts.notMeasured,
        notRecorded: counts.notRecorded,
        hidden: this.requestCount - counts.measured - counts.notMeasured - counts.notRecorded,
      };
    }
    return {
      edge: this.edge,
      fromStage: this.fromStage,
      toStage: this.toStage,
      requestCount: this.requestCount,
      tableCount: this.tableCount,
      fields,
      fieldStates,
      omniTimingTxMs: this.tx.distribution(),
      omniTimingTxStates: { ...this.txStates },
    };
  }
}

export class EdgeSummaryBuilder {
  private readonly byEdge = new Map<string, EdgeAccumulator>();

  /** The sample sets' room for more samples let go (SampleSet.trim): the input ended. */
  trim(): void {
    for (const acc of this.byEdge.values()) acc.trim();
  }

  add(request: AnalyzedRequest): void {
    for (const transfer of request.transfers) {
      let acc = this.byEdge.get(transfer.edge);
      if (acc === undefined) {
        if (this.byEdge.size >= MAX_EDGES) continue;
        this.byEdge.set(
          transfer.edge,
          (acc = new EdgeAccumulator(transfer.edge, transfer.fromStage, transfer.toStage)),
        );
      }
      acc.add(transfer);
    }
  }

  /** One summary per edge, by upstream then downstream stage. */
  edges(): EdgeSummary[] {
    const id = (x: number | null): number => x ?? Number.MAX_SAFE_INTEGER;
    return [...this.byEdge.values()]
      .sort(
        (a, b) =>
          id(a.fromStage) - id(b.fromStage) ||
          id(a.toStage) - id(b.toStage) ||
          (a.edge < b.edge ? -1 : a.edge > b.edge ? 1 : 0),
      )
      .map((a) => a.summary());
  }
}
