// The transfer edges of one request as numbers, beside the waterfall: each edge's
// TransferEdgeStats fields and its [OmniTiming] send time, with their states spelled out
// (hidden, None, and [OmniTiming]'s 0.00 "no payload transfer recorded", never 0 ms).
import type { AnalyzedRequest, RequestTransfer } from '../../../server/protocol';
import { h } from '../../shared/dom';
import { formatCompact } from '../../shared/format';
import { edgeLabel, stageLabel } from '../../shared/labels';
import type { ValueView } from '../../shared/valueState';
import { EXPLAIN, STATE_TEXT } from '../../shared/valueState';

const FIELDS: readonly [field: string, label: string][] = [
  ['tx_time_ms', 'send (ms)'],
  ['in_flight_time_ms', 'in flight (ms)'],
  ['rx_decode_time_ms', 'receive+decode (ms)'],
  ['size_kbytes', 'size (KB)'],
];

function fieldView(t: RequestTransfer, field: string): ValueView {
  if (!t.tablePrinted)
    return {
      text: '—',
      state: 'empty',
      title: `${edgeLabel(t.edge)}: no TransferEdgeStats column for this edge (DEBUG, and printed only when some value is not zero).`,
      value: null,
    };
  const cell = t.fields[field];
  if (cell === undefined)
    return {
      text: STATE_TEXT.hidden,
      state: 'hidden',
      title: `${edgeLabel(t.edge)} ${field}: ${EXPLAIN.hidden}`,
      value: null,
    };
  if (cell.state === 'notMeasured')
    return {
      text: STATE_TEXT.notMeasured,
      state: 'notMeasured',
      title: `${edgeLabel(t.edge)} ${field}: ${EXPLAIN.notMeasured}`,
      value: null,
    };
  if (cell.state === 'text')
    return { text: cell.value, state: 'text', title: `${edgeLabel(t.edge)} ${field}: ${EXPLAIN.text}`, value: null };
  return {
    text: formatCompact(cell.value),
    state: 'measured',
    title: `${edgeLabel(t.edge)} ${field}: ${cell.value}, measured.`,
    value: cell.value,
  };
}

function omniView(t: RequestTransfer): ValueView {
  if (t.omniTimingTxState === 'measured' && t.omniTimingTxMs !== null)
    return {
      text: formatCompact(t.omniTimingTxMs),
      state: 'measured',
      title: `${edgeLabel(t.edge)} [OmniTiming] send: ${t.omniTimingTxMs} ms.`,
      value: t.omniTimingTxMs,
    };
  if (t.omniTimingTxState === 'notRecorded') {
    return {
      text: STATE_TEXT.notRecorded,
      state: 'notRecorded',
      title: `${edgeLabel(t.edge)} [OmniTiming] printed 0.00 ms with no measured tx_time_ms: no payload transfer recorded (async chunk streams the input through the connector), not a 0 ms hand-off.`,
      value: null,
    };
  }
  return {
    text: '—',
    state: 'empty',
    title: `${edgeLabel(t.edge)}: [OmniTiming] was not printed or does not name this edge.`,
    value: null,
  };
}

export class TransferFacts {
  readonly el = h('table', {
    className: 'facts transfer-facts',
    testId: 'transfer-facts',
    attrs: { 'aria-label': 'Transfer edges of this request' },
  });

  show(request: AnalyzedRequest | null, stageNames: Readonly<Record<string, string>>): void {
    const transfers = request?.transfers ?? [];
    this.el.hidden = transfers.length === 0;
    if (transfers.length === 0) {
      this.el.replaceChildren();
      return;
    }
    const head = h(
      'tr',
      {},
      h('th', { text: 'transfer', attrs: { scope: 'col' } }),
      ...FIELDS.map(([, label]) => h('th', { text: label, attrs: { scope: 'col' } })),
      h('th', { text: 'send, [OmniTiming] (ms)', attrs: { scope: 'col' } }),
    );
    const rows = transfers.map((t) => {
      const cells = [
        ...FIELDS.map(([field]) => [field, fieldView(t, field)] as const),
        ['omniTimingTx', omniView(t)] as const,
      ];
      const from = t.fromStage === null ? '?' : stageLabel(String(t.fromStage), stageNames);
      const to = t.toStage === null ? '?' : stageLabel(String(t.toStage), stageNames);
      return h(
        'tr',
        { dataset: { edge: t.edge } },
        h('th', { text: `${from} → ${to}`, attrs: { scope: 'row' } }),
        ...cells.map(([col, v]) =>
          h(
            'td',
            { title: v.title, dataset: { col } },
            h('span', { className: 'v', text: v.text, dataset: { state: v.state } }),
          ),
        ),
      );
    });
    this.el.replaceChildren(h('thead', {}, head), h('tbody', {}, ...rows));
  }
}
