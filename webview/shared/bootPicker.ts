// The server boots of a session whose log holds several (a server restarted, appending to its
// log), where a view's numbers are: when the boots served different pipelines, a notice naming
// each boot's pipeline and what numbers over all of them mean; and the pick of one boot, whose
// numbers are then the requests `stage-lens analyze --boot N` keeps. All boots is the default:
// the view shows every request it showed before, and nothing is left out that the user did not
// leave out.
import type { SessionBoots } from '../../server/protocol';
import { bootPickLabel, PIPELINES_HEAD, pipelinesDiffer, POOLED_BOOTS_TEXT, viewBootNote } from '../../server/shared';
import { h, setChildren, setText } from './dom';

const ALL = 'all';

export class BootPicker {
  readonly el: HTMLElement;
  private readonly pipelines = h('ul', { className: 'boots-pipelines', testId: 'boots-pipelines' });
  private readonly head = h('p', { className: 'boots-head', text: PIPELINES_HEAD });
  private shownPipelines = '';
  private readonly note = h('p', { className: 'boots-note', testId: 'boots-note' });
  private readonly select = h('select', { testId: 'boot-pick', attrs: { 'aria-label': 'Server boot' } });
  private options = '';

  /** `pick`: the user chose a boot (null: every boot). */
  constructor(pick: (boot: number | null) => void) {
    this.select.addEventListener('change', () => pick(this.select.value === ALL ? null : Number(this.select.value)));
    this.el = h(
      'div',
      { className: 'boots', testId: 'boots', role: 'group', attrs: { 'aria-label': 'Server boots' } },
      this.head,
      this.pipelines,
      h('label', { className: 'boot-pick' }, h('span', { text: 'Boot' }), this.select),
      this.note,
    );
    this.el.hidden = true;
  }

  /** The session's boots (null: fewer than two with requests) and the boot shown (null: all). */
  update(boots: SessionBoots | null | undefined, selected: number | null): void {
    this.el.hidden = boots === null || boots === undefined;
    if (boots === null || boots === undefined) return;
    const differ = pipelinesDiffer(boots);
    this.el.classList.toggle('notice-banner', differ);
    this.el.dataset['differ'] = String(differ);
    this.head.hidden = !differ;
    this.pipelines.hidden = !differ;
    const pipelines = differ ? boots.pipelines : [];
    if (JSON.stringify(pipelines) !== this.shownPipelines) {
      this.shownPipelines = JSON.stringify(pipelines);
      setChildren(
        this.pipelines,
        pipelines.map((p) => h('li', { text: p })),
      );
    }
    const total = boots.boots.reduce((n, b) => n + b.requests, 0);
    const key = JSON.stringify(boots.boots);
    if (key !== this.options) {
      this.options = key;
      this.select.replaceChildren(
        h('option', { text: `All boots (${total} requests)`, attrs: { value: ALL } }),
        ...boots.boots.map((b) => h('option', { text: bootPickLabel(b), attrs: { value: String(b.boot) } })),
      );
    }
    this.select.value = selected === null ? ALL : String(selected);
    // What the numbers shown are over: the summary's boot (a pick is shown once its numbers come).
    const note = viewBootNote(boots);
    setText(this.note, note ?? (differ ? POOLED_BOOTS_TEXT : ''));
    this.note.hidden = this.note.textContent === '';
  }
}
