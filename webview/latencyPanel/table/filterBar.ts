// Filters of the request table: request id text, stage (or one replica of a stage that ran on
// several), finding. Applied server-side.
import type { Finding, StageSummary } from '../../../server/protocol';
import { button, debounce, h, setChildren } from '../../shared/dom';
import { stageLabel } from '../../shared/labels';
import { findingOptions } from './findingOptions';

export interface FilterValue {
  readonly filterText: string;
  readonly stageId: number | null;
  /** With stageId: one replica of the stage. */
  readonly replicaId: number | null;
  readonly findingCode: string | null;
}

/** The stage select's value: `1`, or `1/0` for replica 0 of stage 1. */
function stageValue(stageId: number | null, replicaId: number | null): string {
  return stageId === null ? '' : replicaId === null ? String(stageId) : `${stageId}/${replicaId}`;
}

export class FilterBar {
  readonly el: HTMLElement;
  private readonly text = h('input', {
    testId: 'filter-text',
    attrs: {
      type: 'search',
      placeholder: 'Filter by request id',
      'aria-label': 'Filter by request id',
      spellcheck: 'false',
    },
  });
  private readonly stage = h('select', { testId: 'filter-stage', attrs: { 'aria-label': 'Only requests on stage' } });
  private readonly finding = h('select', {
    testId: 'filter-finding',
    attrs: { 'aria-label': 'Only requests named by finding' },
  });
  // null until the first options: a session with no stage (or no finding) still gets its "All" option.
  private stageKey: string | null = null;
  private findingKey: string | null = null;
  private value: FilterValue = { filterText: '', stageId: null, replicaId: null, findingCode: null };

  constructor(
    private readonly onChange: (value: FilterValue) => void,
    onClear: () => void = () => undefined,
  ) {
    const emit = (): void => {
      this.value = this.read();
      this.onChange(this.value);
    };
    this.text.addEventListener('input', debounce(emit, 250));
    this.stage.addEventListener('change', emit);
    this.finding.addEventListener('change', emit);
    this.el = h(
      'div',
      { className: 'filter-bar', role: 'search', attrs: { 'aria-label': 'Filter requests' } },
      this.text,
      this.stage,
      this.finding,
      button('Clear', { className: 'secondary', testId: 'filter-clear' }, () => {
        this.set({ filterText: '', stageId: null, replicaId: null, findingCode: null });
        onClear();
        emit();
      }),
    );
    this.setOptions([], [], [], {});
  }

  /** Options follow the session's stages (each replica of one that ran on several after it) and findings; rebuilt only when they change. */
  setOptions(
    stages: readonly StageSummary[],
    findings: readonly Finding[],
    replicas: readonly StageSummary[] = [],
    stageNames: Readonly<Record<string, string>> = {},
  ): void {
    const stageIds = [
      ...new Set(stages.filter((s) => s.stageId !== null && s.replicaId === null).map((s) => s.stageId as number)),
    ];
    const options = stageIds.flatMap((id) => {
      const label = stageLabel(String(id), stageNames);
      const own = replicas
        .filter((r) => r.stageId === id && r.replicaId !== null)
        .map((r) => r.replicaId as number)
        .sort((a, b) => a - b);
      return [
        { value: stageValue(id, null), text: label },
        ...own.map((r) => ({ value: stageValue(id, r), text: `${label} replica ${r}` })),
      ];
    });
    const stageKey = options.map((o) => `${o.value}:${o.text}`).join('|');
    if (stageKey !== this.stageKey) {
      this.stageKey = stageKey;
      setChildren(this.stage, [new Option('All stages', ''), options.map((o) => new Option(o.text, o.value))]);
    }
    const findingKey = findingOptions(findings)
      .map(([c, t]) => `${c}:${t}`)
      .join('|');
    if (findingKey !== this.findingKey) {
      this.findingKey = findingKey;
      setChildren(this.finding, [
        new Option('All findings', ''),
        findingOptions(findings).map(([c, t]) => new Option(t, c)),
      ]);
    }
    this.showValue();
  }

  set(value: FilterValue): void {
    this.value = value;
    this.text.value = value.filterText;
    this.showValue();
  }

  private showValue(): void {
    const stage = stageValue(this.value.stageId, this.value.replicaId);
    const code = this.value.findingCode ?? '';
    // A filter from a click may name a stage or finding not listed yet: add it so it shows.
    if (stage !== '' && ![...this.stage.options].some((o) => o.value === stage))
      this.stage.append(
        new Option(
          `stage ${this.value.stageId}${this.value.replicaId === null ? '' : ` replica ${this.value.replicaId}`}`,
          stage,
        ),
      );
    if (code !== '' && ![...this.finding.options].some((o) => o.value === code))
      this.finding.append(new Option(code, code));
    this.stage.value = stage;
    this.finding.value = code;
  }

  private read(): FilterValue {
    const [stage = '', replica] = this.stage.value.split('/');
    return {
      filterText: this.text.value.trim(),
      stageId: stage === '' ? null : Number(stage),
      replicaId: stage === '' || replica === undefined ? null : Number(replica),
      findingCode: this.finding.value === '' ? null : this.finding.value,
    };
  }
}
