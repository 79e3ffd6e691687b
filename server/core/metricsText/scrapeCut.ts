// A /metrics scrape cut short (a truncated file, a .prom.gz whose stream breaks, a body that
// stops early): the family it breaks off in may have lost series after the cut, so what that
// family holds is not evidence of what the server exposed. A text exposition ends every line
// with a line feed, so a text that ends inside a line was cut; a gzip stream that broke was cut
// wherever its text ends.
import type { Finding } from '../analysis/types';
import { SERIES_BEFORE_BREAK_READ } from '../gzipInput';
import { canonicalMetricName } from './metricNames';
import type { MetricFamily, ParsedExposition } from './model';

/** How the scrape's input ended, besides its text: whether its gzip data broke off. */
export interface ScrapeEnd {
  readonly gzipBroke: boolean;
}

export const WHOLE_INPUT: ScrapeEnd = { gzipBroke: false };

/**
 * The family whose values the cut may have reached (families come one after the other, and the
 * sample names read last say which one the text ends among), or null when the scrape is whole or
 * cut where no family's values can be missing: in the `X_created` gauge section prometheus_client
 * prints after family X (X's values are all before it), or before any family.
 */
export function cutFamilyOf(parsed: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): MetricFamily | null {
  if (parsed.unterminatedLine === null && !end.gzipBroke) return null;
  if (parsed.valuesAtEnd === null) return null;
  return parsed.families.find((f) => f.name === parsed.valuesAtEnd) ?? null;
}

/**
 * The families (canonical names, in text order) a scrape cut short read whole: those before the
 * family the cut may have reached. Any other family is unknown in it: the cut one, or one after
 * the cut, absent from the text whether or not the server exposed it. null: the scrape is whole.
 */
export function familiesReadWhole(parsed: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): string[] | null {
  if (parsed.unterminatedLine === null && !end.gzipBroke) return null;
  const cut = cutFamilyOf(parsed, end);
  return parsed.families.filter((f) => f !== cut).map((f) => f.canonicalName);
}

/** Where a scrape cut short broke off, by family: what a finding read from its families needs. */
export interface ScrapeCutFamilies {
  /** The families (canonical names, in text order) it read whole: those before the one the cut may have reached. */
  readonly readWhole: readonly string[];
  /** The family (canonical name) the cut may have reached; null: cut between families. */
  readonly cutInside: string | null;
  /**
   * Of the family it broke off in, a histogram's or a summary's, the stages (`stage` label values)
   * whose every series there was read whole before the cut (a series whole only once its `_count`
   * and a line after it were read: seriesAtCut.ts). Absent or empty: none known; a counter's or a
   * gauge's series on the line cut leaves no trace to tell its stage by.
   */
  readonly stagesReadWholeInCut?: readonly string[];
}

/** The stages whose every histogram or summary series of `family` was read whole (none cut); empty for a counter or gauge. */
function stagesReadWhole(family: MetricFamily): string[] {
  if (family.type !== 'histogram' && family.type !== 'summary') return [];
  const whole = new Map<string, boolean>();
  for (const series of family.series) {
    const stage = series.labels['stage'];
    if (stage !== undefined) whole.set(stage, (whole.get(stage) ?? true) && series.cut !== true);
  }
  return [...whole].filter(([, w]) => w).map(([stage]) => stage);
}

/** The families a scrape cut short read whole and the one it broke off in; null: the scrape is whole. */
export function scrapeCutFamilies(parsed: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): ScrapeCutFamilies | null {
  const readWhole = familiesReadWhole(parsed, end);
  if (readWhole === null) return null;
  const cut = cutFamilyOf(parsed, end);
  const stages = cut === null ? [] : stagesReadWhole(cut);
  return {
    readWhole,
    cutInside: cut?.canonicalName ?? null,
    ...(stages.length === 0 ? {} : { stagesReadWholeInCut: stages }),
  };
}

/**
 * Families a check reads: `names`, any one of which serves, or (`firstOf`) the first of which the
 * scrape has is the one read (the inter-token latency under its newer name, else its older one:
 * itlSeries), whatever the others hold. `perSeries`: the check reads the family series by series,
 * so in the family a scrape broke off in, a stage's series read whole before the cut serve.
 */
export interface FamilyRead {
  readonly names: readonly string[];
  readonly firstOf?: true;
  readonly perSeries?: true;
}

/**
 * Whether a scrape cut short read what a check of `stageId` (null: every stage) reads of `read`:
 * null when it did; else the name it did not read whole (the one the cut broke off in, or one
 * absent from its text, which may be after the cut), and whether the cut is inside it.
 */
export function unreadFamily(
  cut: ScrapeCutFamilies,
  read: FamilyRead,
  stageId: number | null,
): { readonly name: string; readonly inside: boolean } | null {
  const inCut = (name: string): boolean => cut.cutInside !== null && familyAmong([cut.cutInside], name);
  const whole = (name: string): boolean => familyAmong(cut.readWhole, name);
  const stageWhole = (name: string): boolean =>
    read.perSeries === true &&
    stageId !== null &&
    inCut(name) &&
    (cut.stagesReadWholeInCut ?? []).includes(String(stageId));
  const present = read.names.filter((n) => whole(n) || inCut(n));
  // The one a check of the first name the scrape has reads; of names any one of which serves, each.
  const used = read.firstOf === true ? present.slice(0, 1) : read.names;
  if (used.some((n) => whole(n) || stageWhole(n))) return null;
  // None in its text: any may be after the cut, the first named.
  const name = used.find(inCut) ?? read.names[0] ?? '';
  return { name, inside: inCut(name) };
}

/**
 * Whether a family (any spelling: a counter named with or without `_total`, an older build's
 * `vllm:omni_` prefix) is among `names`, canonical family names as the scrape declared them.
 */
export function familyAmong(names: readonly string[], family: string): boolean {
  const name = canonicalMetricName(family);
  const base = name.endsWith('_total') ? name.slice(0, -'_total'.length) : name;
  return names.includes(base) || names.includes(`${base}_total`);
}

/**
 * The input-cut-short finding of a text that ends inside a line, in the words of a cut .prom.gz's
 * (input-gzip-damaged); null when the text ends with a line feed, or its gzip data broke (that finding says it).
 */
export function scrapeCutFinding(parsed: ParsedExposition, end: ScrapeEnd = WHOLE_INPUT): Finding | null {
  if (parsed.unterminatedLine === null || end.gzipBroke) return null;
  return {
    code: 'input-cut-short',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The /metrics scrape ends inside its line ${parsed.unterminatedLine}, with no line feed after it (a file or body cut short): ${SERIES_BEFORE_BREAK_READ}; the rest of the scrape is not.`,
  };
}

/**
 * Why a histogram series (`of`: "this series", or a stage's when its replicas' series are added)
 * shows no count, sum or quantiles: the scrape was cut before the series was read whole.
 */
export function cutSeriesCaveat(of: 'series' | 'stage'): string {
  const what = of === 'series' ? 'this series' : 'a series of this stage';
  return `The scrape is cut short before ${what} was read whole (its _count and the line after it), so its count, sum and quantiles are unknown, not measured.`;
}

const CUT_CAVEATS = [cutSeriesCaveat('series'), cutSeriesCaveat('stage')];

/** The cut's sentence a series' caveat starts with; null when it does not. */
export function cutSentenceOf(caveat: string | null | undefined): string | null {
  return caveat == null ? null : (CUT_CAVEATS.find((c) => caveat.startsWith(c)) ?? null);
}

/** Whether a series' caveat starts with the cut's sentence (a row saved without its `cut` flag). */
export function caveatSaysCut(caveat: string | null | undefined): boolean {
  return cutSentenceOf(caveat) !== null;
}

/**
 * What a series' caveat says besides the cut (it comes first): the lies the series is known to
 * show, apart from its numbers being unknown; null when it says nothing else.
 */
export function caveatBesidesCut(caveat: string | null | undefined): string | null {
  if (caveat == null) return null;
  const cut = cutSentenceOf(caveat);
  if (cut === null) return caveat;
  const rest = caveat.slice(cut.length).trim();
  return rest === '' ? null : rest;
}
