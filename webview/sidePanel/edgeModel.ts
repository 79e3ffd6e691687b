// The side panel's transfer table as data: one row per edge (`0 → 1`), one cell per
// TransferEdgeStats field (send, in flight, receive+decode, size, and any other row the server
// printed) and [OmniTiming]'s send time, at the percentile shown, over measured values only.
// A hidden row, an edge without a table column and an [OmniTiming] `0.00ms` with no payload
// transfer recorded are counted and said, never shown as 0. DOM-free (unit-tested in Node).
import type { EdgeFieldStates, EdgeSummary, Percentile } from '../../server/protocol';
import { noNumberState } from '../../server/shared';
import { formatCompact, formatWithUnit } from '../shared/format';
import { edgeLabel, stageRole } from '../shared/labels';
import type { ValueView } from '../shared/valueState';
import { EMPTY_VIEW, EXPLAIN, STATE_TEXT } from '../shared/valueState';
import type { ColumnGroup, SummaryCell, SummaryColumn, SummaryModel, SummaryRow } from './summaryModel';

const OMNI_TX = 'omniTimingTx';

/** The fields upstream prints per edge, in its order, with how people call them. */
const KNOWN: readonly {
  readonly field: string;
  readonly label: string;
  readonly unit: string;
  readonly group: ColumnGroup;
  readonly help: string;
}[] = [
  {
    field: 'tx_time_ms',
    label: 'send',
    unit: 'ms',
    group: 'phase',
    help: 'Sender: serializing and putting the payload on the connector (tx_time_ms).',
  },
  {
    field: 'in_flight_time_ms',
    label: 'in flight',
    unit: 'ms',
    group: 'phase',
    help: 'Between the send and the receiver getting it (in_flight_time_ms).',
  },
  {
    field: 'rx_decode_time_ms',
    label: 'receive+decode',
    unit: 'ms',
    group: 'phase',
    help: 'Receiver: getting and decoding the payload (rx_decode_time_ms).',
  },
  { field: 'size_kbytes', label: 'size', unit: 'KB', group: 'audio', help: 'Payload size (size_kbytes).' },
];

function unitOf(field: string): string {
  return field.endsWith('_ms') ? 'ms' : field.endsWith('_s') ? 's' : field.endsWith('_kbytes') ? 'KB' : '';
}

export function edgeColumns(edges: readonly EdgeSummary[]): SummaryColumn[] {
  const fields = new Set(edges.flatMap((e) => Object.keys(e.fieldStates)));
  const out: SummaryColumn[] = [];
  for (const k of KNOWN)
    if (fields.has(k.field))
      out.push({ id: `field:${k.field}`, label: k.label, unit: k.unit, group: k.group, help: k.help });
  for (const f of [...fields].sort()) {
    if (KNOWN.some((k) => k.field === f)) continue;
    out.push({
      id: `field:${f}`,
      label: f,
      unit: unitOf(f),
      group: 'token',
      help: `${f} (TransferEdgeStats), as printed.`,
    });
  }
  if (edges.some((e) => e.omniTimingTxStates.measured + e.omniTimingTxStates.notRecorded > 0)) {
    out.push({
      id: OMNI_TX,
      label: 'send ([OmniTiming])',
      unit: 'ms',
      group: 'total',
      help: 'The send time [OmniTiming] prints per edge (transfers=[0->1=N ms]); 0.00 without a measured tx_time_ms is no payload transfer recorded, not 0 ms.',
    });
  }
  return out;
}

const NOT_RECORDED_TX =
  'Not recorded: [OmniTiming] prints 0.00 ms for every edge into a downstream stage, transfer or not; without a measured tx_time_ms it means no payload transfer was recorded (async chunk streams the input through the connector), not a 0 ms hand-off.';

const NEGATIVE_FIELD =
  'Not recorded: the numbers printed are below zero (a clock or accounting bug in the server, finding negative-interval), nan or inf: not a time. Never averaged in.';

function fieldView(edge: EdgeSummary, field: string, unit: string, pct: Percentile): ValueView {
  const d = edge.fields[field];
  const states = edge.fieldStates[field];
  const name = `${edgeLabel(edge.edge)} ${field}`;
  const left = (s: EdgeFieldStates): string => {
    const parts = [
      s.notMeasured > 0 ? `${s.notMeasured} not measured (None)` : '',
      s.notRecorded > 0 ? `${s.notRecorded} not recorded (printed below zero, nan or inf: not a time)` : '',
      s.hidden > 0 ? `${s.hidden} hidden or without a TransferEdgeStats column` : '',
    ].filter((p) => p !== '');
    return parts.length === 0 ? '' : ` Left out (never counted as 0): ${parts.join(', ')}.`;
  };
  if (d !== undefined && d.count > 0) {
    const value = d[pct];
    return {
      text: formatCompact(value),
      state: 'measured',
      title: `${name} ${pct}: ${formatWithUnit(value, unit)} over ${d.count} requests.${states === undefined ? '' : left(states)}`,
      value,
      partial: states !== undefined && states.notMeasured + states.notRecorded + states.hidden > 0,
    };
  }
  if (states === undefined) return { ...EMPTY_VIEW, title: `${name}: not printed for this edge.` };
  const state = noNumberState(states);
  return {
    text: STATE_TEXT[state],
    state,
    title: `${name}: ${state === 'notRecorded' ? NEGATIVE_FIELD : EXPLAIN[state]}${left(states)}`,
    value: null,
  };
}

function omniTxView(edge: EdgeSummary, pct: Percentile): ValueView {
  const d = edge.omniTimingTxMs;
  const s = edge.omniTimingTxStates;
  const others =
    s.notRecorded > 0
      ? ` ${s.notRecorded} requests printed 0.00 with no payload transfer recorded (not 0 ms, left out).`
      : '';
  if (d !== null && d.count > 0) {
    const value = d[pct];
    return {
      text: formatCompact(value),
      state: 'measured',
      title: `${edgeLabel(edge.edge)} [OmniTiming] send ${pct}: ${formatWithUnit(value, 'ms')} over ${d.count} requests.${others}`,
      value,
      partial: s.notRecorded + s.absent > 0,
    };
  }
  if (s.notRecorded > 0)
    return {
      text: STATE_TEXT.notRecorded,
      state: 'notRecorded',
      title: `${edgeLabel(edge.edge)} [OmniTiming] send on ${s.notRecorded} requests: ${NOT_RECORDED_TX}`,
      value: null,
    };
  return { ...EMPTY_VIEW, title: `${edgeLabel(edge.edge)}: [OmniTiming] does not name this edge.` };
}

/** Rows per edge in the order given (by upstream then downstream stage). */
export function edgeModel(
  edges: readonly EdgeSummary[],
  pct: Percentile,
  stageNames: Readonly<Record<string, string>>,
): SummaryModel {
  const columns = edgeColumns(edges);
  const views = edges.map((edge) => ({
    edge,
    views: columns.map((c) =>
      c.id === OMNI_TX ? omniTxView(edge, pct) : fieldView(edge, c.id.slice('field:'.length), c.unit, pct),
    ),
  }));
  const groupMax = new Map<ColumnGroup, number>();
  for (const { views: vs } of views) {
    vs.forEach((v, i) => {
      const g = (columns[i] as SummaryColumn).group;
      if (v.value !== null && v.value > 0) groupMax.set(g, Math.max(groupMax.get(g) ?? 0, v.value));
    });
  }
  const rows = views.map(({ edge, views: vs }): SummaryRow => {
    const cells: Record<string, SummaryCell> = {};
    vs.forEach((v, i) => {
      const c = columns[i] as SummaryColumn;
      const max = groupMax.get(c.group) ?? 0;
      cells[c.id] = {
        ...v,
        ratio: v.value === null || max <= 0 ? 0 : Math.max(0, Math.min(1, v.value / max)),
        hot: false,
      };
    });
    const from = edge.fromStage === null ? '?' : String(edge.fromStage);
    const to = edge.toStage === null ? '?' : String(edge.toStage);
    const roles = [stageRole(from, stageNames), stageRole(to, stageNames)];
    return {
      key: edge.edge,
      label: `${from} → ${to}`,
      role: roles.every((r) => r !== '') ? `${roles[0]} → ${roles[1]}` : '',
      replica: null,
      requestCount: edge.requestCount,
      stageId: edge.toStage,
      cells,
    };
  });
  return { columns, rows };
}
