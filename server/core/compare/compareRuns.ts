// Two runs in, one comparison report out: per-request metrics when both runs have
// per-request data, histogram quantiles when both have a scrape, the findings diff, and
// the notes a reader needs to trust (or not) what is shown.
import { compareTails } from './tailCompare';
import { diffFindings } from './findingsDiff';
import { findingCheckability } from './findingCheckability';
import { scrapeFindings } from './scrapeFindings';
import { compareHistograms, HISTOGRAM_NOT_TESTABLE } from './histogramCompare';
import { compareMetrics, DEFAULT_SIGNIFICANCE, quantileMinSamples } from './metricCompare';
import type { SignificanceOptions } from './metricCompare';
import type { ComparisonReport, HistogramComparison, RunData, RunSummary, SignificanceMethod } from './types';
import { caveatBesidesCut, cutSentenceOf } from '../metricsText/scrapeCut';
import { REQUEST_SCOPE } from './types';
import { stageRolesFromOf, type StageRolesFrom } from '../stageRoles';
import { rolesThatFit, stageKindsOf } from '../analysis/roleFit';
import { judgedRunStageRoles, runStageRolesOf } from './runRoles';
import { stagesOfTwoPipelines } from './rulePipelines';
import { unreadableInputFinding } from '../analysis/unreadableInput';
import { precisionNotes } from './precisionNote';
import { countOf } from '../numberText';
import { runDataName } from './format';
import { inputBreakOf } from './inputBreak';
import { noRequestStatsWhy } from './noRequestStats';

function describeKind(run: RunData): string {
  if (run.samples !== null && run.histograms !== null) return 'per-request data and a /metrics scrape';
  if (run.samples !== null) return 'per-request data (a log)';
  if (run.histograms !== null) return 'only /metrics histograms (a scrape)';
  return 'nothing readable';
}

/** Why two runs cannot be compared at all, or null when they share some kind of data. */
export function incomparableReason(baseline: RunData, candidate: RunData): string | null {
  const samples = baseline.samples !== null && candidate.samples !== null;
  const histograms = baseline.histograms !== null && candidate.histograms !== null;
  if (samples || histograms) return null;
  return `nothing to compare: the baseline (${baseline.source}) has ${describeKind(baseline)}, the candidate (${candidate.source}) has ${describeKind(candidate)}. Compare two logs (or sessions with a log), or two scrapes.`;
}

function summary(run: RunData): RunSummary {
  return {
    source: run.source,
    kind: run.kind,
    requestCount: run.samples?.requestCount ?? null,
    coldRequests: run.samples?.coldRequests ?? null,
    coldExcluded: run.samples?.coldExcluded ?? false,
    problemCount: run.problemCount,
    histogramSeries: run.histograms?.length ?? null,
    exposedHistogramSeries: run.exposedHistogramSeries ?? null,
    logSpan: run.samples?.logSpan ?? null,
    ...(run.bootCounts === undefined ? {} : { boot: run.bootCounts.boot }),
    ...(run.serverCounts === undefined ? {} : { server: run.serverCounts.server }),
    ...(run.partialLogBytes === undefined ? {} : { partialLogBytes: run.partialLogBytes }),
    ...(run.samples?.debugLines === true ? { debugLines: true as const } : {}),
    ...(run.scrapeCut === undefined ? {} : { scrapeCut: run.scrapeCut }),
  };
}

export function methodOf(options: SignificanceOptions): SignificanceMethod {
  const pct = Math.round(options.confidence * 1000) / 10;
  return {
    bootstrap: `${pct}% percentile-bootstrap confidence interval of the quantile difference (candidate − baseline, numpy linear quantiles), ${options.resamples} resamples per quantile, seed ${options.seed}; each resample is drawn exactly from its order statistics (Beta), so every measured value takes part (no subsampling)`,
    confidence: options.confidence,
    resamples: options.resamples,
    seed: options.seed,
    minSamples: options.minSamples,
    rankTest: `Mann-Whitney U, two-sided, normal approximation with tie and continuity corrections; beyond noise when p < ${Math.round((1 - options.confidence) * 1000) / 1000}`,
    beyondNoise: `the ${pct}% confidence interval of the difference excludes 0`,
    minChangeMs: options.minChangeMs,
    minChangePct: options.minChangePct,
    quantileMinSamples: {
      p50: quantileMinSamples('p50', options),
      p90: quantileMinSamples('p90', options),
      p99: quantileMinSamples('p99', options),
    },
    flagged:
      `a change is flagged only when it is beyond noise, larger than the practical threshold (the larger of ${options.minChangeMs} ms and ${options.minChangePct}% of the baseline's quantile), ` +
      `and each run has enough measured values for that quantile (p50 ${quantileMinSamples('p50', options)}, p90 ${quantileMinSamples('p90', options)}, p99 ${quantileMinSamples('p99', options)}: n ≥ 1/(1 − q), so some value lies above it)`,
    histograms: `/metrics histograms: quantiles as PromQL histogram_quantile over the buckets (replicas of a stage added); significance not testable (${HISTOGRAM_NOT_TESTABLE})`,
  };
}

export interface CompareOptions {
  readonly significance?: SignificanceOptions;
}

export function compareRuns(baseline: RunData, candidate: RunData, options: CompareOptions = {}): ComparisonReport {
  const significance = options.significance ?? DEFAULT_SIGNIFICANCE;
  const notes: string[] = [];
  const metrics =
    baseline.samples !== null && candidate.samples !== null
      ? compareMetrics(baseline.samples, candidate.samples, significance)
      : [];
  const histograms =
    baseline.histograms !== null && candidate.histograms !== null
      ? compareHistograms(baseline.histograms, candidate.histograms, significance, {
          baseline: baseline.scrapeCut?.readWhole,
          candidate: candidate.scrapeCut?.readWhole,
        })
      : [];
  // A scrape's signatures (the codec TTFT one, families stuck at 0) appear and disappear as a log's findings do.
  const findingsOf = (run: RunData) => [
    ...(run.samples?.findings ?? []),
    ...(run.scrapeFindings ?? (run.histograms === null ? [] : scrapeFindings(run.histograms, null))),
  ];
  // Over the requests the findings are of: cold starts left out are out of them too.
  const findingsOver = (run: RunData): number | null =>
    run.samples === null ? null : run.samples.requestCount - (run.samples.coldExcluded ? run.samples.coldRequests : 0);
  const findings = diffFindings(
    findingsOf(baseline),
    findingsOf(candidate),
    { baseline: findingsOver(baseline), candidate: findingsOver(candidate) },
    findingCheckability(baseline, candidate),
  );

  if (baseline.samples === null && candidate.samples === null) {
    notes.push(
      'Neither run has per-request data (both are /metrics scrapes): histogram quantiles only, without significance; findings only of what the scrapes show to be wrong (no request counts).',
    );
  } else if (baseline.samples === null || candidate.samples === null) {
    const which = baseline.samples === null ? 'baseline' : 'candidate';
    notes.push(
      `The ${which} has no per-request data (${describeKind(baseline.samples === null ? baseline : candidate)}): per-request metrics and findings are not compared.`,
    );
  }
  for (const [name, run] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    // A run read from gzip data that broke off is the log (or the series) before the break: said, as
    // the run is still compared. A log of 0 requests says it below, as why it has none.
    const broke = inputBreakOf(run);
    if (broke !== undefined && (run.samples === null || run.samples.requestCount > 0))
      notes.push(`The ${name} (${runDataName(run)}): ${broke}`);
    if (run.samples !== null && run.samples.requestCount === 0) {
      const unreadable = unreadableInputFinding(run.samples.findings);
      notes.push(
        unreadable !== undefined
          ? `The ${name} (${runDataName(run)}): ${unreadable.message}`
          : `The ${name} (${runDataName(run)}): 0 requests read: ${noRequestStatsWhy(run.samples)}`,
      );
    }
  }
  // Requests read with no value at all (tables cut off before their rows): no table follows, so this says why.
  if (
    metrics.length === 0 &&
    histograms.length === 0 &&
    baseline.samples !== null &&
    candidate.samples !== null &&
    baseline.samples.requestCount > 0 &&
    candidate.samples.requestCount > 0
  )
    notes.push(
      `Nothing to compare: the requests read (${baseline.samples.requestCount} in the baseline, ${candidate.samples.requestCount} in the candidate) printed no stage, transfer or end-to-end value (their tables were cut off before any row, or print none); \`stage-lens analyze\` shows what each run holds.`,
    );
  const cutRows = histograms.filter((h) => h.baseline?.cut === true || h.candidate?.cut === true);
  if (cutRows.length > 0) {
    const why = new Set(
      cutRows.flatMap((h) =>
        [h.baseline, h.candidate].filter((s) => s?.cut === true).map((s) => cutSentenceOf(s?.caveat)),
      ),
    );
    why.delete(null);
    notes.push(
      `${cutRows.length} /metrics series ${cutRows.length === 1 ? 'is' : 'are'} cut short in a run (marked ~ in the table, ✂️ in Markdown; unknown, not measured, so no difference is taken on them): ${[...why].join(' ')}`,
    );
  }
  const unreadRows = histograms.filter((h) => h.unreadIn !== undefined);
  if (unreadRows.length > 0) {
    const runs = (['baseline', 'candidate'] as const).filter((r) => unreadRows.some((h) => h.unreadIn === r));
    const one = unreadRows.length === 1;
    notes.push(
      `${unreadRows.length} /metrics series ${one ? 'is' : 'are'} absent from a scrape cut short before ${one ? 'it' : 'them'}, in ${runs.map((r) => `the ${r}`).join(' and ')} (marked ~ in the table, ✂️ in Markdown; unknown there, not missing, so no difference is taken on ${one ? 'it' : 'them'}).`,
    );
  }
  const misleads = (h: HistogramComparison): (string | null)[] => [
    caveatBesidesCut(h.baseline?.caveat),
    caveatBesidesCut(h.candidate?.caveat),
  ];
  const lies = histograms.filter((h) => misleads(h).some((c) => c !== null));
  if (lies.length > 0) {
    // Each lie once, in either run (a stage can show one in the baseline and another in the candidate).
    const why = new Set(lies.flatMap(misleads));
    why.delete(null);
    notes.push(
      `${lies.length} /metrics series are known to be wrong in a run (marked ! in the table, ⚠️ in Markdown; no difference is taken on them): ${[...why].join(' ')}`,
    );
  }
  let stagesDiffer: string | null = null;
  if (baseline.samples !== null && candidate.samples !== null) {
    const cutB = cutOffRequests(baseline.samples.findings);
    const cutC = cutOffRequests(candidate.samples.findings);
    const bScopes = baseline.samples.scopes.map((s) => s.scope).filter((s) => s !== REQUEST_SCOPE);
    const cScopes = candidate.samples.scopes.map((s) => s.scope).filter((s) => s !== REQUEST_SCOPE);
    for (const [what, edges] of [
      ['Stage', false],
      ['Transfer edge', true],
    ] as const) {
      const b = new Set(bScopes.filter((s) => s.includes('->') === edges));
      const c = new Set(cScopes.filter((s) => s.includes('->') === edges));
      const onlyB = [...b].filter((s) => !c.has(s));
      const onlyC = [...c].filter((s) => !b.has(s));
      // A run whose stats were cut off (an excerpt, an interrupted write) may hold the stages it lacks in the part not read.
      const lacking = cutOffLacking(onlyC.length > 0 ? cutB : 0, onlyB.length > 0 ? cutC : 0);
      if (!edges && b.size > 0 && c.size > 0 && onlyB.length + onlyC.length > 0) {
        const stages = `The runs have different stages (baseline ${[...b].join(', ')}; candidate ${[...c].join(', ')})`;
        stagesDiffer =
          lacking === null
            ? `${stages}: not the same pipeline or deploy config, so a stage of one is not the same stage of the other. Rows are matched by stage id only.`
            : `${stages}, but ${lacking}: a stage a run lacks may be in the part not read, so this is no evidence of two pipelines. Rows are matched by stage id only.`;
        notes.unshift(stagesDiffer);
      }
      const verb = edges ? 'named' : lacking === null ? 'ran' : 'read';
      if (onlyB.length > 0) notes.push(`${what} ${onlyB.join(', ')} ${verb} only in the baseline.`);
      if (onlyC.length > 0) notes.push(`${what} ${onlyC.join(', ')} ${verb} only in the candidate.`);
    }
    if (baseline.samples.coldExcluded) {
      notes.push(
        `Cold requests (first after a server start) left out of the quantiles and findings: ${baseline.samples.coldRequests} in the baseline, ${candidate.samples.coldRequests} in the candidate.`,
      );
    } else if (baseline.samples.coldRequests + candidate.samples.coldRequests > 0) {
      notes.push(
        `Cold requests are included (${baseline.samples.coldRequests} in the baseline, ${candidate.samples.coldRequests} in the candidate); --exclude-cold leaves them out.`,
      );
    }
    const tested = metrics.reduce((n, m) => n + m.quantiles.filter((q) => q.beyondNoise !== null).length, 0);
    if (tested > 0) {
      const expected = tested * (1 - significance.confidence);
      notes.push(
        `${tested} quantile differences were tested at ${Math.round(significance.confidence * 1000) / 10}%: even with no real change, about ${expected < 1 ? expected.toFixed(1) : Math.round(expected)} of them would show as beyond noise by chance.`,
      );
      const all = metrics.flatMap((m) => m.quantiles);
      const small = all.filter((q) => q.verdict === 'belowThreshold').length;
      const few = all.filter((q) => q.beyondNoise === true && q.verdict === 'fewSamples').length;
      if (small + few > 0) {
        const parts = [
          small > 0
            ? `${small} no larger than the practical threshold (${significance.minChangeMs} ms or ${significance.minChangePct}% of the baseline)`
            : '',
          few > 0
            ? `${few} with fewer values than the quantile needs (p99: ${quantileMinSamples('p99', significance)})`
            : '',
        ].filter((p) => p !== '');
        notes.push(`Beyond noise but not flagged as a change: ${parts.join('; ')}.`);
      }
    }
  }
  if (baseline.problemCount + candidate.problemCount > 0) {
    notes.push(
      `Unreadable lines or series: ${baseline.problemCount} in the baseline, ${candidate.problemCount} in the candidate (skipped; \`stage-lens analyze\` lists them).`,
    );
  }
  const oneOutput = [
    ...new Set(
      [baseline, candidate].flatMap(
        (r) =>
          r.samples?.scopes.filter((s) => (s.metrics.prefillDecode?.values.length ?? 0) > 0).map((s) => s.scope) ?? [],
      ),
    ),
  ];
  const runStageRoles = { baseline: runStageRolesOf(baseline), candidate: runStageRolesOf(candidate) };
  const runStageKinds = {
    baseline: stageKindsOf(baseline.samples?.stageOutputs ?? []),
    candidate: stageKindsOf(candidate.samples?.stageOutputs ?? []),
  };
  const twoPipelines = stagesOfTwoPipelines(runStageRoles, runStageKinds);
  if (stagesDiffer === null && twoPipelines.length > 0) {
    stagesDiffer = `The runs are two pipelines: ${twoPipelines.join('; ')}. A stage of one is not the same stage of the other: rows are matched by stage id only.`;
    notes.unshift(stagesDiffer);
  }
  const stageRoles = comparedRoles(baseline, candidate, runStageRoles.baseline, runStageRoles.candidate);
  const runStageRolesFrom = {
    baseline: rolesFrom(runStageRoles.baseline, baseline),
    candidate: rolesFrom(runStageRoles.candidate, candidate),
  };
  // comparedRoles keeps the baseline's where it has some, else the candidate's.
  const stageRolesFrom: StageRolesFrom =
    Object.keys(stageRoles).length === 0
      ? 'none'
      : Object.keys(runStageRoles.baseline).length > 0
        ? runStageRolesFrom.baseline
        : runStageRolesFrom.candidate;
  // Before the other notes (after the different-stages warning, which heads them): it bears on every number read.
  notes.splice(stagesDiffer === null ? 0 : 1, 0, ...precisionNotes(baseline, candidate, stageRoles));
  const tail =
    baseline.samples !== null && candidate.samples !== null
      ? compareTails(baseline.samples.tails ?? null, candidate.samples.tails ?? null, oneOutput, stageRoles)
      : null;
  return {
    schema: 1,
    baseline: summary(baseline),
    candidate: summary(candidate),
    method: methodOf(significance),
    metrics,
    histograms,
    findings,
    notes,
    tail,
    stageRoles,
    runStageRoles,
    runStageKinds,
    stageRolesFrom,
    runStageRolesFrom,
    stagesDiffer,
  };
}

/** Where `roles`, `run`'s fitted roles, came from (as analyze and explain say it). */
function rolesFrom(roles: Readonly<Record<string, string>>, run: RunData): StageRolesFrom {
  return stageRolesFromOf(
    roles,
    run.samples?.servedModel ?? null,
    run.recordedStageRoles !== undefined,
    judgedRunStageRoles(run).fromLabels,
  );
}

/**
 * Stages named as the editor names a session's, from the files' names: each run's only where
 * its stages' own output does not contradict them (a TTS log named glm_image-*.log has no
 * diffusion stage), and only where the runs do not say two pipelines (a Qwen3-TTS run against
 * a Qwen3-Omni one) and ran the same stages; otherwise a stage of one is not that stage of the
 * other, and stages go by id. The roles kept must fit both runs' stages.
 */
function comparedRoles(
  baseline: RunData,
  candidate: RunData,
  b: Readonly<Record<string, string>>,
  c: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const bText = Object.values(b).join();
  const cText = Object.values(c).join();
  if (bText !== '' && cText !== '' && bText !== cText) return {};
  const stageIds = (run: RunData): string =>
    (run.samples?.scopes ?? [])
      .filter((s) => s.stageId !== null)
      .map((s) => s.stageId)
      .join();
  if (baseline.samples !== null && candidate.samples !== null && stageIds(baseline) !== stageIds(candidate)) return {};
  const fitting = (roles: Readonly<Record<string, string>>, run: RunData) =>
    rolesThatFit(roles, run.samples?.stageOutputs ?? []);
  return bText !== '' ? fitting(b, candidate) : fitting(c, baseline);
}

/** Requests of a run whose stats were cut off (the truncated-record finding): their unread part may hold stages. */
export function cutOffRequests(findings: readonly { readonly code: string; readonly requestCount: number }[]): number {
  return findings.find((f) => f.code === 'truncated-record')?.requestCount ?? 0;
}

/** "the baseline has 1 request whose stats were cut off", for the runs lacking a stage the other has; null when neither was cut. */
function cutOffLacking(baseline: number, candidate: number): string | null {
  const cut = 'whose stats were cut off (truncated-record)';
  if (baseline > 0 && candidate > 0)
    return `the baseline has ${countOf(baseline, 'request')} and the candidate ${countOf(candidate, 'request')} ${cut}`;
  if (baseline > 0) return `the baseline has ${countOf(baseline, 'request')} ${cut}`;
  if (candidate > 0) return `the candidate has ${countOf(candidate, 'request')} ${cut}`;
  return null;
}
