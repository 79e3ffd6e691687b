// Activation: wires the language client, commands, terminals, status bar and views.
// Nothing else lives here. Activation starts no language server: the first command, view
// or deploy-config YAML does (a window with no deploy config and no Stage Lens action
// stays light).
import * as vscode from 'vscode';
import { showError } from './notify';
import { StageLensClient } from './client';
import { SessionStatusBar } from './statusBar';
import { StatusBarFeed } from './statusBarFeed';
import { DeployConfigTracker } from './deployConfigs';
import { SessionContextKeys } from './sessionContext';
import { EarlyOutput, ServerOutputTerminal } from './terminal';
import { launchServer, startDemo } from './commands/launch';
import type { LaunchDeps } from './commands/launch';
import { attachToLogFile, attachToMetrics, attachToProcess, importLog } from './commands/attach';
import { exportSession, openSession, stopCapture } from './commands/sessions';
import { useSessionForConfig } from './commands/matchDeployConfig';
import { openConfigLatency, type ConfigLatencyArgs } from './commands/configLatency';
import { attachToPrometheus } from './commands/prometheus';
import { registerViews } from './views/registerViews';
import { compareSessions } from './commands/compare';
import type { CompareArgs } from './commands/compare';
import { ComparePanel } from './views/comparePanel';
import { isSettingError, showSettingError } from './settings';
import type { SessionInfo, ViewFilter } from '../server/protocol';
import { sessionLogLines } from './sessionLogLines';
import { closableLog, closeClientThenLog } from './shutdown';

/** What activate() returns: used by the extension-host tests. */
export interface StageLensApi {
  readonly client: StageLensClient;
  /** What the status bar item shows (null: hidden). */
  readonly statusBar: () => { readonly text: string; readonly tooltip: string } | null;
}

export async function activate(context: vscode.ExtensionContext): Promise<StageLensApi> {
  const log = closableLog(vscode.window.createOutputChannel('Stage Lens', { log: true }));
  const client = new StageLensClient(context, log);
  const statusBar = new SessionStatusBar();
  const terminals = new Map<string, ServerOutputTerminal>();
  const startServer = (): void => {
    void client
      .start()
      .catch((err: unknown) =>
        log.error(`language server did not start: ${err instanceof Error ? err.message : String(err)}`),
      );
  };
  active = client;
  context.subscriptions.push(closeClientThenLog(client, log), statusBar, {
    dispose: () => terminals.forEach((t) => t.dispose()),
  });
  context.subscriptions.push(new DeployConfigTracker(startServer), new SessionContextKeys(client));
  log.info(`activated; storage ${context.globalStorageUri.fsPath}`);

  // A launch's first lines (its command line, or why it could not start) can arrive before
  // the request that created the session has answered: they wait here for its terminal.
  const early = new EarlyOutput();
  // Each session as last logged: the Output channel says what changed, not every update.
  const logged = new Map<string, SessionInfo>();
  context.subscriptions.push(
    client.onNotification('stageLens/rawOutput', (p) => {
      const terminal = terminals.get(p.sessionId);
      if (terminal !== undefined) terminal.write(p.text);
      else early.hold(p.sessionId, p.text);
    }),
    client.onDidUpdateSession((session) => {
      for (const line of sessionLogLines(logged.get(session.id), session)) log[line.level](line.text);
      logged.set(session.id, session);
    }),
  );
  const statusBarFeed = new StatusBarFeed(
    client,
    (session, summary, outage, lastBoot) => statusBar.show(session, summary, outage, lastBoot),
    log,
  );
  context.subscriptions.push(statusBarFeed);

  const views = registerViews(context, client, log);
  const revealLatencyView = async (filter: ViewFilter = {}): Promise<void> => {
    await vscode.commands.executeCommand('stageLens.latencyView.focus');
    views.openLatencyPanel(filter);
  };
  const deps: LaunchDeps = {
    client,
    context,
    // After Start Demo Server / a launch / an import: both views shown, the keyboard left where the user
    // is (a palette they opened meanwhile stays open). No filter is posted: a filter moves the
    // keyboard into the panel's table, which a user's click on a stage wants and this does not.
    revealLatencyView: async () => {
      await vscode.commands.executeCommand('stageLens.latencyView.focus', { preserveFocus: true });
      views.openLatencyPanel(undefined, { preserveFocus: true });
    },
    openTerminal: (sessionId, name) => {
      const t = new ServerOutputTerminal(name);
      terminals.set(sessionId, t);
      for (const text of early.take(sessionId)) t.write(text);
      return t;
    },
  };

  const command = (id: string, fn: (...args: never[]) => unknown): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          return await fn(...args);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          log.error(`${id}: ${message}`);
          if (isSettingError(err)) void showSettingError(err);
          else void showError(`Stage Lens: ${message}`);
          return undefined;
        }
      }),
    );
  };
  command('stageLens.launchServer', () => launchServer(deps));
  command('stageLens.launchWithDeployConfig', (uri?: vscode.Uri | string) =>
    launchServer(
      deps,
      typeof uri === 'string' ? vscode.Uri.parse(uri) : (uri ?? vscode.window.activeTextEditor?.document.uri),
    ),
  );
  command('stageLens.startDemo', () => startDemo(deps));
  command('stageLens.attachProcess', () => attachToProcess(client, deps.revealLatencyView));
  command('stageLens.attachLogFile', () => attachToLogFile(client, deps.revealLatencyView));
  command('stageLens.attachMetrics', () => attachToMetrics(client, deps.revealLatencyView));
  command('stageLens.attachPrometheus', () => attachToPrometheus(client, deps.revealLatencyView));
  command('stageLens.importLog', (uri?: vscode.Uri, uris?: vscode.Uri[]) =>
    importLog(client, deps.revealLatencyView, uri, uris),
  );
  command('stageLens.openSession', () => openSession(client));
  command('stageLens.stopCapture', () => stopCapture(client));
  command('stageLens.exportSession', () => exportSession(client));
  command('stageLens.useSessionForConfig', (uri?: vscode.Uri) => useSessionForConfig(client, uri));
  command('stageLens.openLatencyView', (filter?: ViewFilter | ConfigLatencyArgs) =>
    filter !== undefined && 'deployConfig' in filter
      ? openConfigLatency(client, revealLatencyView, filter)
      : revealLatencyView(filter ?? {}),
  );
  const comparePanel = new ComparePanel(context.extensionUri, client, (line) => log.warn(line));
  context.subscriptions.push(comparePanel);
  command('stageLens.compareSessions', (args?: CompareArgs) => compareSessions(client, comparePanel, args));

  return { client, statusBar: () => statusBar.shown };
}

/** The client of this extension host, stopped by deactivate. */
let active: StageLensClient | undefined;

/** VS Code waits for this on shutdown: the language server is asked to stop, not left to its pipe. */
export function deactivate(): Promise<void> | undefined {
  return active?.stop();
}
