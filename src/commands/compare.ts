// Compare Sessions...: pick a baseline and a candidate (a session, or a log / scrape /
// saved session folder on disk) and open the comparison panel. A log that merges several
// servers' (kubectl logs --prefix, docker compose logs, stern) is compared whole or one server of
// it, and a run whose log holds several server boots with requests (a server restarted,
// appending to one log) whole or one boot of it (of the server picked): each is offered after the
// run is picked, as `compare --baseline-server/--baseline-boot` select. With arguments (tests,
// other commands) the pickers are skipped.
import * as vscode from 'vscode';
import { showPick } from '../quickPick';
import type { StageLensClient } from '../client';
import type { CompareRunName, CompareTarget, RunBootsResult, SessionInfo } from '../../server/protocol';
import {
  allServersLabel,
  bootPickLabel,
  runNameOfPath,
  runNameOfSession,
  runNameWithBoot,
  serverPickLabel,
} from '../../server/shared';
import type { ComparePanel, ShownComparison } from '../views/comparePanel';
import { sessionPickDescription } from '../sessionPickText';

export interface CompareArgs {
  readonly baseline: CompareTarget;
  readonly candidate: CompareTarget;
  readonly excludeCold?: boolean;
  /** One server boot of a side (absent or null: every boot). */
  readonly baselineBoot?: number | null;
  readonly candidateBoot?: number | null;
  /** One server of a merged log of a side (absent or null: every server). */
  readonly baselineServer?: string | null;
  readonly candidateServer?: string | null;
}

/**
 * A side picked: the run and, when its log merges several servers, the one chosen, and when it
 * holds several boots (of that server), the one chosen (null: all of them).
 */
interface PickedSide {
  readonly target: CompareTarget;
  readonly server: string | null;
  readonly boot: number | null;
}

type Pick = vscode.QuickPickItem & { readonly target: CompareTarget | 'file' };

function sessionItem(s: SessionInfo): Pick {
  return {
    target: { sessionId: s.id },
    label: s.title,
    description: sessionPickDescription(s),
    detail: s.description,
  };
}

async function pickTarget(
  sessions: readonly SessionInfo[],
  step: string,
  exclude: CompareTarget | null,
): Promise<CompareTarget | undefined> {
  const items: Pick[] = [
    ...sessions
      .filter((s) => exclude === null || !('sessionId' in exclude) || exclude.sessionId !== s.id)
      .map(sessionItem),
    {
      target: 'file',
      iconPath: new vscode.ThemeIcon('file'),
      label: 'Choose a file or folder…',
      detail: 'A server log, a /metrics scrape, or a saved session folder',
    },
  ];
  const picked = await showPick(items, {
    title: `Stage Lens: compare (${step})`,
    placeHolder: step.startsWith('1') ? 'The baseline: the run to compare against' : 'The candidate: the run to judge',
    matchOnDetail: true,
  });
  if (picked === undefined) return undefined;
  if (picked.target !== 'file') return picked.target;
  const uris = await vscode.window.showOpenDialog({
    title: `Stage Lens: compare (${step})`,
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: step.startsWith('1') ? 'Baseline' : 'Candidate',
  });
  const uri = uris?.[0];
  return uri === undefined ? undefined : { path: uri.fsPath };
}

type BootPick = vscode.QuickPickItem & { readonly boot: number | null };
type ServerPick = vscode.QuickPickItem & { readonly server: string | null };

/** The server of a merged log to compare: asked only when the run has several; undefined when cancelled. */
async function pickServer(choices: RunBootsResult, step: string): Promise<string | null | undefined> {
  const { servers, untaggedRequests } = choices;
  if (servers.length < 2) return null;
  const items: ServerPick[] = [
    { server: null, label: allServersLabel(servers, untaggedRequests), description: `${servers.length} servers` },
    ...servers.map((s) => ({ server: s.server, label: serverPickLabel(s) })),
  ];
  const picked = await showPick(items, {
    title: `Stage Lens: compare (${step})`,
    placeHolder: 'This log merges several servers: compare all of it, or the requests of one server',
    matchOnDescription: true,
  });
  return picked === undefined ? undefined : picked.server;
}

/** The boot of a run (of its server picked) to compare: asked only when it has more than one boot with requests; undefined when cancelled. */
async function pickBoot(
  boots: RunBootsResult['boots'],
  server: string | null,
  step: string,
): Promise<number | null | undefined> {
  if (boots.length < 2) return null;
  const items: BootPick[] = [
    {
      boot: null,
      label: 'All boots',
      description: server === null ? `${boots.length} server boots in this log` : `${boots.length} boots of ${server}`,
    },
    ...boots.map((b) => ({ boot: b.boot, label: bootPickLabel(b) })),
  ];
  const picked = await showPick(items, {
    title: `Stage Lens: compare (${step})`,
    placeHolder: `${server === null ? 'The server' : server} restarted in this log: compare all of it, or the requests of one boot`,
  });
  return picked === undefined ? undefined : picked.boot;
}

async function pickSide(
  client: StageLensClient,
  sessions: readonly SessionInfo[],
  step: string,
  exclude: CompareTarget | null,
): Promise<PickedSide | undefined> {
  const target = await pickTarget(sessions, step, exclude);
  if (target === undefined) return undefined;
  const choices = await client.request('stageLens/runBoots', target);
  const server = await pickServer(choices, step);
  if (server === undefined) return undefined;
  // Each server of a merged log numbers its own boots: the boots offered are the server's.
  const { boots } = server === null ? choices : await client.request('stageLens/runBoots', { ...target, server });
  const boot = await pickBoot(boots, server, step);
  return boot === undefined ? undefined : { target, server, boot };
}

function nameOf(target: CompareTarget, sessions: readonly SessionInfo[]): CompareRunName {
  if ('path' in target) return runNameOfPath(target.path);
  const session = sessions.find((s) => s.id === target.sessionId);
  return session === undefined
    ? { name: target.sessionId, imported: false, detail: target.sessionId }
    : runNameOfSession(session);
}

/** Runs the comparison in the panel; resolves with what was compared and drawn (undefined when a picker was cancelled). */
export async function compareSessions(
  client: StageLensClient,
  panel: ComparePanel,
  args?: CompareArgs,
): Promise<ShownComparison | undefined> {
  const sessions = await client.refreshSessions();
  let baseline: PickedSide | undefined =
    args === undefined
      ? undefined
      : { target: args.baseline, server: args.baselineServer ?? null, boot: args.baselineBoot ?? null };
  let candidate: PickedSide | undefined =
    args === undefined
      ? undefined
      : { target: args.candidate, server: args.candidateServer ?? null, boot: args.candidateBoot ?? null };
  if (baseline === undefined) baseline = await pickSide(client, sessions, '1/2: baseline', null);
  if (baseline === undefined) return undefined;
  // A session compared one boot or one server at a time may be picked again (before and after a
  // restart; one pod against another).
  const whole = baseline.boot === null && baseline.server === null;
  if (candidate === undefined)
    candidate = await pickSide(client, sessions, '2/2: candidate', whole ? baseline.target : null);
  if (candidate === undefined) return undefined;
  return panel.show(
    {
      baseline: baseline.target,
      candidate: candidate.target,
      excludeCold: args?.excludeCold === true,
      baselineBoot: baseline.boot,
      candidateBoot: candidate.boot,
      baselineServer: baseline.server,
      candidateServer: candidate.server,
    },
    {
      baseline: runNameWithBoot(nameOf(baseline.target, sessions), baseline.boot, baseline.server),
      candidate: runNameWithBoot(nameOf(candidate.target, sessions), candidate.boot, candidate.server),
    },
  );
}
