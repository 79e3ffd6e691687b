// A deploy config's code lens "Latency Details for stage N": the numbers of the session that
// config shows (the live or latest one tied to it, chosen as for its inlay numbers); else the
// session on screen when its stages are the config's. A session of another pipeline, or one
// with no per-request numbers to show (a finished run that read no request, a /metrics scrape),
// is never shown silently: a warning names it and offers to pick a session for the config or to
// show this one anyway.
import * as vscode from 'vscode';
import { showWarning } from '../notify';
import type { StageLensClient } from '../client';
import type { ViewFilter } from '../../server/protocol';
import { SHOW_ANYWAY, useSessionForConfig } from './matchDeployConfig';
import { mayShowNumbers, readsRequests } from '../../server/shared';
import { sessionShownIn } from './sessionShownIn';

export const PICK_SESSION = 'Pick a Session...';

/** The code lens's argument (server/lsp/deployFeatures.ts OpenLatencyViewArgs). */
export interface ConfigLatencyArgs extends ViewFilter {
  readonly deployConfig: string;
}

export async function openConfigLatency(
  client: StageLensClient,
  reveal: (filter: ViewFilter) => Promise<void>,
  args: ConfigLatencyArgs,
): Promise<void> {
  const { deployConfig, ...filter } = args;
  const matched = sessionShownIn(client.allSessions(), deployConfig);
  if (matched !== undefined) {
    client.setCurrent(matched.id);
    return reveal(filter);
  }
  const current = client.currentSession();
  if (current === null) return reveal(filter);
  const file = vscode.Uri.file(deployConfig);
  const name = vscode.workspace.asRelativePath(file);
  let warning: { readonly message: string; readonly why: string };
  if (!mayShowNumbers(current)) {
    warning = {
      message: `Stage Lens: the session on screen, ${current.title}, has no requests to show for ${name}.`,
      why: readsRequests(current)
        ? `${current.title} ended without a request read: its Latency Details would be empty.`
        : `${current.title} reads /metrics only, never a request's stage times: its Latency Details would be empty.`,
    };
  } else {
    const fit = await client.request('stageLens/deployConfigFit', { sessionId: current.id, deployConfig });
    if (fit.stageMismatch === null) return reveal(filter);
    warning = {
      message: `Stage Lens: the session on screen, ${current.title}, did not run ${name}.`,
      why: fit.stageMismatch.message,
    };
  }
  const choice = await showWarning(
    warning.message,
    { modal: true, detail: `${warning.why} Pick the session that ran ${name}, or show ${current.title} anyway.` },
    PICK_SESSION,
    SHOW_ANYWAY,
  );
  if (choice === SHOW_ANYWAY) return reveal(filter);
  if (choice !== PICK_SESSION) return undefined;
  const picked = await useSessionForConfig(client, file);
  if (picked === undefined) return undefined;
  client.setCurrent(picked.id);
  return reveal(filter);
}
