// Rules on a stage of two runs that are not one pipeline: stage 1 of a Qwen3-TTS run (code2wav)
// is not stage 1 of a GLM-Image run (diffusion), so a gate on it would hold one against the
// other and pass or fail by accident. The runs say so by their stages (different ids, or a stage
// of another kind: an LLM stage in one, a diffusion stage in the other) and by their roles (from
// the model each log serves, else its file's name), whatever the files are called. Such a rule
// is a usage error naming the stage and what it is in each run; a request-scope rule (end to
// end) still compares.
import type { StageKind } from '../analysis/types';
import type { Rule } from './rules';
import type { ComparisonReport } from './types';
import { REQUEST_SCOPE } from './types';

type Side = 'baseline' | 'candidate';

/** The stage ids a run ran (a scope with requests on that side), in pipeline order. */
function stagesOf(report: ComparisonReport, side: Side): string[] {
  const ids = report.metrics
    .filter((m) => m.scope !== REQUEST_SCOPE && !m.scope.includes('->') && m[side].requests > 0)
    .map((m) => m.scope.split('_')[0] ?? m.scope);
  return [...new Set(ids)];
}

const KIND_WORDS = { llm: 'an LLM stage', diffusion: 'a diffusion stage' } as const;

type PerRun<T> = Readonly<Record<Side, Readonly<Record<string, T>>>>;

/**
 * The stages the runs give two roles or two kinds, each said as "stage 1 is code2wav in the
 * baseline and diffusion in the candidate" (roles where both runs know them, else kinds).
 */
export function stagesOfTwoPipelines(roles: PerRun<string>, kinds: PerRun<StageKind>): string[] {
  const ids = [...new Set([...Object.keys(roles.baseline), ...Object.keys(kinds.baseline)])].sort();
  return ids.flatMap((id) => {
    const [b, c] = [roles.baseline[id], roles.candidate[id]];
    if (b !== undefined && c !== undefined)
      return b === c ? [] : [`stage ${id} is ${b} in the baseline and ${c} in the candidate`];
    const [bk, ck] = [kinds.baseline[id], kinds.candidate[id]];
    return bk === undefined || ck === undefined || bk === ck
      ? []
      : [`stage ${id} is ${KIND_WORDS[bk]} in the baseline and ${KIND_WORDS[ck]} in the candidate`];
  });
}

/** "stage 1 is code2wav in the baseline and talker in the candidate", or what is known of it. */
function whatStageIs(report: ComparisonReport, stage: string): string {
  const one = (side: Side): string => {
    if (!stagesOf(report, side).includes(stage)) return `did not run in the ${side}`;
    const role = report.runStageRoles?.[side][stage];
    if (role !== undefined) return `is ${role} in the ${side}`;
    const kind = report.runStageKinds?.[side][stage];
    return kind === undefined ? `has no known role in the ${side}` : `is ${KIND_WORDS[kind]} in the ${side}`;
  };
  const b = one('baseline');
  const c = one('candidate');
  const same = b.replace(' in the baseline', '');
  if (same.startsWith('is ') && same === c.replace(' in the candidate', '')) {
    // The stage itself reads alike in both: what makes them two pipelines is another stage.
    const others =
      report.runStageRoles !== undefined && report.runStageKinds !== undefined
        ? stagesOfTwoPipelines(report.runStageRoles, report.runStageKinds)
        : [];
    if (others.length > 0) return `stage ${stage} ${same} in both runs, but ${others.join('; ')}`;
  }
  if (b.startsWith('has no known role') && c.startsWith('has no known role'))
    return `stage ${stage} of one is not stage ${stage} of the other (neither log says its roles)`;
  return `stage ${stage} ${b} and ${b.startsWith('is ') && c.startsWith('is ') ? c.slice(3) : c}`;
}

/**
 * One line per stage rule the runs cannot answer as one pipeline: they ran different stages, the
 * stage is of another kind in each, or their roles differ. Empty for runs of one pipeline.
 */
export function rulePipelineErrors(rules: readonly Rule[], report: ComparisonReport): string[] {
  const differs = (of: Readonly<Record<Side, Readonly<Record<string, string>>>> | undefined, stage: string) => {
    const b = of?.baseline[stage];
    const c = of?.candidate[stage];
    return b !== undefined && c !== undefined && b !== c;
  };
  const differ = report.stagesDiffer ?? null;
  return rules
    .filter((r) => r.scope !== REQUEST_SCOPE)
    .map((r) => ({ rule: r, stage: r.scope.split('_')[0] ?? r.scope }))
    .filter(
      ({ stage }) => differ !== null || differs(report.runStageRoles, stage) || differs(report.runStageKinds, stage),
    )
    .map(({ rule, stage }) => {
      const sameIds = stagesOf(report, 'baseline').join() === stagesOf(report, 'candidate').join();
      const runs = !sameIds
        ? `the runs have different stages (baseline ${stagesOf(report, 'baseline').join(', ')}; candidate ${stagesOf(report, 'candidate').join(', ')})`
        : 'the runs are two pipelines';
      return `--fail-if '${rule.text}': ${runs}: ${whatStageIs(report, stage)}; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline`;
    });
}
