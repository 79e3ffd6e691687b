// A request's transfer edges from the two places the log names them: the TransferEdgeStats
// table (DEBUG: size, send, decode and in-flight time per edge) and the `transfers=[...]`
// part of [OmniTiming] (INFO: the send time only). One entry per edge, the two sources kept
// apart, so a value is never taken from one and shown as the other.
//
// `0->1=0.00ms` in [OmniTiming] is printed for every stage after the first, transfer or not:
// upstream (`vllm_omni/metrics/stats.py`) creates the edge (stage_id - 1 -> stage_id) when
// the downstream stage reports its stats, adds send time only when the orchestrator forwards
// a payload (on_forward), and prints every edge with its accumulated send time. So 0.00
// without a measured tx_time_ms in the table means no payload transfer was recorded (async
// chunk streams the input through the connector), not a 0 ms hand-off: state notRecorded.
import type { OmniTimingRecord, TransferEdge } from '../records';
import type { RequestTransfer, TransferTxState } from './types';

const TX_FIELD = 'tx_time_ms';

function txStateOf(ms: number | null, edge: TransferEdge | undefined): TransferTxState {
  if (ms === null) return 'absent';
  if (ms > 0 || Number.isNaN(ms)) return 'measured';
  const tx = edge?.fields[TX_FIELD];
  return tx !== undefined && tx.state === 'measured' && tx.value !== 0 ? 'measured' : 'notRecorded';
}

const edgeName = (from: number, to: number): string => `${from}->${to}`;

/** The edges of a request: the table's columns in printed order, then edges only [OmniTiming] names. */
export function requestTransfers(table: readonly TransferEdge[], timing: OmniTimingRecord | null): RequestTransfer[] {
  const timed = timing?.transfers ?? [];
  if (table.length === 0 && timed.length === 0) return [];
  const out: RequestTransfer[] = [];
  for (const edge of table) {
    let ms: number | null = null;
    if (edge.fromStage !== null && edge.toStage !== null) {
      for (const t of timed) if (t.fromStage === edge.fromStage && t.toStage === edge.toStage) ms = t.ms;
    }
    out.push({
      edge: edge.edge,
      fromStage: edge.fromStage,
      toStage: edge.toStage,
      fields: edge.fields,
      tablePrinted: true,
      omniTimingTxMs: ms,
      omniTimingTxState: txStateOf(ms, edge),
    });
  }
  for (const t of timed) {
    if (table.some((e) => e.fromStage === t.fromStage && e.toStage === t.toStage)) continue;
    out.push({
      edge: edgeName(t.fromStage, t.toStage),
      fromStage: t.fromStage,
      toStage: t.toStage,
      fields: {},
      tablePrinted: false,
      omniTimingTxMs: t.ms,
      omniTimingTxState: txStateOf(t.ms, undefined),
    });
  }
  return out;
}

/** The TransferEdgeStats columns of a request's edges (what the packed store keeps). */
export function tableEdgesOf(transfers: readonly RequestTransfer[]): TransferEdge[] {
  const out: TransferEdge[] = [];
  for (const t of transfers)
    if (t.tablePrinted) out.push({ edge: t.edge, fromStage: t.fromStage, toStage: t.toStage, fields: t.fields });
  return out;
}
