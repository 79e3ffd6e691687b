// Findings: numbers that lie in known ways, each with its explanation. Clicking one opens
// the latency panel on the requests it names. Keyed, so a live update only edits text.
import type { Severity } from '../../server/protocol';
import type { Finding } from '../../server/protocol';
import { h, setAttr, setData, setText } from '../shared/dom';
import { findingRequestsText } from '../shared/format';

interface ItemParts {
  readonly li: HTMLLIElement;
  readonly button: HTMLButtonElement;
  readonly severity: HTMLSpanElement;
  readonly message: HTMLSpanElement;
  readonly meta: HTMLSpanElement;
  finding: Finding;
}

const SEVERITY_WORD: Readonly<Record<Severity, string>> = { error: 'Error', warning: 'Warning', info: 'Info' };

export class FindingsList {
  readonly el: HTMLElement;
  private readonly list = h('ul', { className: 'findings', testId: 'findings', attrs: { 'aria-label': 'Findings' } });
  private readonly none = h('p', { className: 'muted', text: 'No findings.', testId: 'findings-none' });
  private items = new Map<string, ItemParts>();

  constructor(private readonly onOpen: (finding: Finding) => void) {
    this.el = h(
      'section',
      { className: 'findings-section', attrs: { 'aria-label': 'Findings' } },
      h('h2', { text: 'Findings' }),
      this.list,
      this.none,
    );
  }

  /** `shownAbove`: findings said elsewhere on the panel (the missing stats tables' notice): "no other findings". */
  update(findings: readonly Finding[], shownAbove = false): void {
    const seen = new Set<string>();
    findings.forEach((f, i) => {
      const key = `${f.code}/${f.stageId ?? ''}`;
      seen.add(key);
      let item = this.items.get(key);
      if (item === undefined) {
        item = this.create(f);
        this.items.set(key, item);
      }
      item.finding = f;
      if (this.list.children[i] !== item.li) this.list.insertBefore(item.li, this.list.children[i] ?? null);
      setData(item.li, 'severity', f.severity);
      setText(item.severity, SEVERITY_WORD[f.severity]);
      setText(item.message, f.message);
      const stage = f.stageId === null ? '' : `stage ${f.stageId} · `;
      // requestCount, never requestIds.length: live summaries cap the id list. A finding about
      // a metric (metric-not-reporting) concerns no request: no count is shown.
      const requests = f.requestCount > 0 ? `${findingRequestsText(f)} · ` : '';
      setText(item.meta, `${stage}${requests}${f.code}`);
      setAttr(
        item.button,
        'aria-label',
        `${SEVERITY_WORD[f.severity]}: ${f.message} ${f.requestCount > 0 ? 'Open the requests.' : 'Open Latency Details.'}`,
      );
    });
    for (const [k, item] of this.items) {
      if (!seen.has(k)) {
        item.li.remove();
        this.items.delete(k);
      }
    }
    this.none.hidden = findings.length > 0;
    setText(
      this.none,
      shownAbove ? 'No other findings (the missing stats tables are said at the top).' : 'No findings.',
    );
  }

  private create(f: Finding): ItemParts {
    const severity = h('span', { className: 'severity-word' });
    const message = h('span', { className: 'finding-message' });
    const meta = h('span', { className: 'finding-meta muted' });
    const icon = h('span', { className: 'severity-icon', attrs: { 'aria-hidden': 'true' } });
    const button = h(
      'button',
      { className: 'finding', attrs: { type: 'button' } },
      icon,
      h('span', { className: 'finding-text' }, severity, message, meta),
    );
    const li = h('li', { testId: 'finding', dataset: { code: f.code } }, button);
    const parts: ItemParts = { li, button, severity, message, meta, finding: f };
    button.addEventListener('click', () => this.onOpen(parts.finding));
    return parts;
  }
}
