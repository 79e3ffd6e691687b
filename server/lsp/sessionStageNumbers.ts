// The live numbers shown next to each stage of a deploy YAML, from the session tied to that
// file (launched or imported with it, or chosen by the user; of several, the one
// core/deployConfigSession.ts ranks first): never guessed from names. A session without numbers
// to show says why in their place.
import type { SessionRegistry } from '../capture/sessionRegistry';
import {
  stagesRanAlongside,
  type LivePhase,
  type LiveStageNumbers,
  type NoStageNumbers,
  type ReplicaLiveNumbers,
  type StageLiveNumbers,
} from '../core/deploy/liveNumbers';
import type { SplitName, StageSummary } from '../core/analysis/types';
import { noNumberState, type NoNumberState } from '../core/values';
import { firstStageIdOf } from '../core/analysis/crossStage';
import type { Disposable, StageNumbersProvider } from './stageNumbersProvider';
import path from 'node:path';
import { sessionTailAttribution } from '../capture/explainQueries';
import { tailLeadOf } from '../core/deploy/tailLead';
import { statusWords, titleWithStatus } from '../core/sessionStatusWords';
import { stageRolesOfSession } from '../core/stageRoles';
import { isLiveSession, readsRequests, sessionForDeployConfig } from '../core/deployConfigSession';
import type { SessionInfo } from '../protocol';

/** The split's phases as the hover names them. */
const PHASE_SPLIT: readonly (readonly [LivePhase, SplitName])[] = [
  ['ttft', 'ttftMs'],
  ['prefill', 'prefillMs'],
  ['decode', 'decodeMs'],
  ['queued', 'queuedMs'],
  ['inputWait', 'inputWaitMs'],
  ['readyQueued', 'readyQueuedMs'],
];

/**
 * The phases of a stage with no number, and why (None, hidden, not recorded), as the CLI's
 * table words them: where the stage printed a split at all. The input split only where the
 * session prints it on some stage (as the table shows its columns); prefill and decode not on a
 * one-output stage, whose prefill+decode stands for both.
 */
function noNumberOf(s: StageSummary, inputSplit: boolean): Partial<Record<LivePhase, NoNumberState>> {
  const printed = PHASE_SPLIT.some(([, name]) => s.splitStates[name].measured + s.splitStates[name].inferred > 0);
  const out: Partial<Record<LivePhase, NoNumberState>> = {};
  if (!printed || s.requestCount === 0) return out;
  for (const [phase, name] of PHASE_SPLIT) {
    if ((s.split[name]?.count ?? 0) > 0) continue;
    if ((phase === 'inputWait' || phase === 'readyQueued') && !inputSplit) continue;
    if ((phase === 'prefill' || phase === 'decode') && s.oneOutputRequests > 0) continue;
    out[phase] = noNumberState(s.splitStates[name]);
  }
  return out;
}

/** The p50s a stage's (or one replica's) hint and hover show. */
function stageNumbersOf(
  s: StageSummary,
  stageId: number,
  alongsideUpstream: boolean,
  downstream: boolean,
  ttftWaitedRequests: number,
  inputSplit: boolean,
): StageLiveNumbers {
  const notRecorded = s.splitStates.ttftMs.notRecorded;
  const inputWait = s.split.inputWaitMs?.p50 ?? null;
  return {
    stageId,
    ttftP50Ms: s.split.ttftMs?.p50 ?? null,
    prefillP50Ms: s.split.prefillMs?.p50 ?? null,
    prefillDecodeP50Ms: s.prefillDecodeMs?.p50 ?? null,
    decodeP50Ms: s.split.decodeMs?.p50 ?? null,
    queuedP50Ms: s.split.queuedMs?.p50 ?? null,
    inputWaitP50Ms: inputWait,
    readyQueuedP50Ms: s.split.readyQueuedMs?.p50 ?? null,
    readyQueuedInferred: s.splitStates.readyQueuedMs.measured === 0 && s.splitStates.readyQueuedMs.inferred > 0,
    queuedIncludesInputWait: downstream && inputWait === null,
    n: s.requestCount,
    ttftNotRecorded: notRecorded > 0 && notRecorded >= s.requestCount / 2,
    ttftWaitedRequests,
    noNumber: noNumberOf(s, inputSplit),
    stageTimeP50Ms:
      s.fields['stage_gen_time_ms']?.p50 ??
      (s.fields['omni_timing_stage_s'] === undefined ? null : s.fields['omni_timing_stage_s'].p50 * 1000),
    alongsideUpstream,
  };
}

const sessionLabelOf = (info: SessionInfo): string => titleWithStatus(info.title, info);

/**
 * Why `info` has no stage numbers to show whatever its state: it reads only aggregates
 * (/metrics, Prometheus), or it ended without a request (a launch that never started); null
 * when it has requests or may still read some.
 */
function noNumbersOf(info: SessionInfo): NoStageNumbers | null {
  const name = sessionLabelOf(info);
  if (!readsRequests(info)) {
    const prometheus = info.kind === 'prometheus';
    return {
      label: `no per-request numbers: ${prometheus ? 'Prometheus' : '/metrics'} only`,
      detail:
        `${name} reads ${prometheus ? 'a Prometheus server' : '/metrics'}: histograms over every request the server ` +
        "observed, not each request's stage times, so there are no numbers to show after each stage_id. Its " +
        'histograms are in Stage Lens: Latency Summary; for numbers here, show a session that reads the ' +
        "server's log (Show This Session's Numbers in This Deploy Config…).",
    };
  }
  if (info.requestCount > 0 || isLiveSession(info)) return null;
  const why = info.lastError === null ? '' : `: ${info.lastError}`;
  return { label: 'no requests measured', detail: `${name} ended before any request${why}.` };
}

const waitingFor = (info: SessionInfo): NoStageNumbers => ({
  label: 'waiting for the first request',
  detail: `${sessionLabelOf(info)} has read no request yet: its numbers show here from the first.`,
});

export class SessionStageNumbers implements StageNumbersProvider {
  private readonly listeners = new Set<(deployConfigPath: string | null) => void>();
  private readonly cache = new Map<string, { key: string; numbers: LiveStageNumbers }>();
  private registry: SessionRegistry | null = null;

  attach(registry: SessionRegistry): void {
    this.registry = registry;
    this.changed(null);
  }

  /** A session changed: hints of its deploy config (or all, for null) refresh. */
  changed(deployConfig: string | null): void {
    for (const l of this.listeners) l(deployConfig === null ? null : path.resolve(deployConfig));
  }

  numbersFor(deployConfigPath: string): LiveStageNumbers | null {
    const registry = this.registry;
    if (registry === null) return null;
    const wanted = path.resolve(deployConfigPath);
    const info = sessionForDeployConfig(registry.list(), (file) => path.resolve(file) === wanted);
    if (info === undefined) return null;
    // Nothing to replay for a session that reads no request or ended without one: its hint says so.
    const before = noNumbersOf(info);
    if (before !== null) return { sessionLabel: sessionLabelOf(info), stages: [], noNumbers: before };
    const session = registry.get(info.id);
    if (session === undefined) {
      // A saved session is replayed only now that a deploy config asks for its numbers.
      const deployConfig = info.deployConfig;
      registry.openInBackground(info.id, () => this.changed(deployConfig));
      return null;
    }
    // Its status too: a session that stops keeps its count, and the hover must stop saying "running".
    const key = `${info.id}:${info.requestCount}:${statusWords(info)}`;
    const cached = this.cache.get(wanted);
    if (cached !== undefined && cached.key === key) return cached.numbers;
    const stages: StageLiveNumbers[] = [];
    const summary = session.summary(0);
    // Stages that ran at the same time: a downstream stage's time holds the upstream time.
    const alongside = stagesRanAlongside(summary.findings, info.requestCount);
    const firstStageId = firstStageIdOf(summary.stages);
    const replicas = summary.replicas;
    // The input split is named on every stage where some stage prints it (the CLI table's columns).
    const inputSplit = summary.stages.some((s) =>
      (['inputWaitMs', 'readyQueuedMs'] as const).some(
        (n) => s.splitStates[n].measured + s.splitStates[n].inferred > 0,
      ),
    );
    for (const s of summary.stages) {
      if (s.stageId === null || s.stageKey.includes('_')) continue;
      const downstream = s.stageId > firstStageId;
      const alongsideUpstream = alongside && downstream;
      // Its TTFT marked as the CLI's table and the side panel mark it: one finding, one rule.
      const waited =
        summary.findings.find((f) => f.code === 'ttft-includes-upstream-wait' && f.stageId === s.stageId)
          ?.requestCount ?? 0;
      const own: ReplicaLiveNumbers[] = [];
      for (const r of replicas)
        if (r.stageKey === s.stageKey && r.replicaId !== null)
          own.push({
            ...stageNumbersOf(r, s.stageId, alongsideUpstream, downstream, waited, inputSplit),
            replicaId: r.replicaId,
          });
      stages.push({
        ...stageNumbersOf(s, s.stageId, alongsideUpstream, downstream, waited, inputSplit),
        ...(own.length === 0 ? {} : { replicas: own.sort((a, b) => a.replicaId - b.replicaId) }),
      });
    }
    // Live, but no request read yet.
    if (stages.length === 0 && info.requestCount === 0)
      return { sessionLabel: sessionLabelOf(info), stages, noNumbers: waitingFor(info) };
    const missing = summary.tablesMissing;
    const oneOutput = new Set(
      summary.stages.filter((s) => s.replicaId === null && s.oneOutputRequests > 0).map((s) => s.stageKey),
    );
    const numbers: LiveStageNumbers = {
      // Its title names what was read or served (server.log, logged 10-19 07:12:04 to 07:12:12),
      // not the internal id; its status in the views' words ("imported", not "exited").
      sessionLabel: sessionLabelOf(info),
      stages,
      tablesMissing:
        missing === null
          ? null
          : {
              requests: missing.requests,
              of: missing.of,
              all: missing.all,
              message: missing.message,
              ...(missing.debugLines === true ? { debugLines: true as const } : {}),
              ...(missing.cutOut === true ? { cutOut: true as const } : {}),
            },
      tailLead: tailLeadOf(
        sessionTailAttribution(session, { sessionId: info.id }).tails[0] ?? null,
        oneOutput,
        // The session's stage roles as the views name them (src/stageRoles.ts).
        stageRolesOfSession(info),
      ),
    };
    this.cache.set(wanted, { key, numbers });
    return numbers;
  }

  onDidChange(listener: (deployConfigPath: string | null) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
