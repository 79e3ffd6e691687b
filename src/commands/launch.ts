// Launch Server..., Launch With This Deploy Config, Start Demo Server.
import * as vscode from 'vscode';
import { showError, showWarning } from '../notify';
import { showPick } from '../quickPick';
import * as net from 'node:net';
import * as path from 'node:path';
import type { StageLensClient } from '../client';
import { launchConsentQuestion, withWorkspaceEnv, type WorkspaceOverride } from '../launchConsent';
import { checkModel, demoSettings, launchSettings, workspaceValue } from '../settings';
import {
  checkServerCommand,
  checkServerEnv,
  commandUses,
  expandServerCommand,
  SETTING_DEFAULTS,
  type ServerCommand,
} from '../settingValues';
import type { ServerOutputTerminal } from '../terminal';
import type { SessionInfo } from '../../server/protocol';
import { mayBeDeployConfig } from '../../server/shared';
import { demoScenarioFor, demoSimulatorArgv } from '../demoArgs';

export interface LaunchDeps {
  readonly client: StageLensClient;
  readonly context: vscode.ExtensionContext;
  readonly openTerminal: (sessionId: string, name: string) => ServerOutputTerminal;
  readonly revealLatencyView: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function pickDeployConfig(): Promise<string | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  const files = await vscode.workspace.findFiles('**/*.{yaml,yml}', '**/node_modules/**', 200);
  const items = files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f as vscode.Uri | undefined }));
  if (active !== undefined && /\.ya?ml$/.test(active.fileName))
    items.unshift({ label: `${vscode.workspace.asRelativePath(active.uri)} (active editor)`, uri: active.uri });
  const picked = await showPick([...items, { label: 'Browse...', uri: undefined }], {
    title: 'Stage Lens: deploy config (--deploy-config)',
  });
  if (picked === undefined) return undefined;
  if (picked.uri === undefined) {
    const chosen = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Deploy YAML': ['yaml', 'yml'] },
    });
    return chosen?.[0]?.fsPath;
  }
  return picked.uri.fsPath;
}

/** The shell-like line a user reads: `NAME=value … argv`. Display only. */
function commandLine(argv: readonly string[], env: Readonly<Record<string, string>>): string {
  const quote = (a: string): string =>
    a !== '' && /^[\w@%+=:,./${}-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
  return [...Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`), ...argv.map(quote)].join(' ');
}

/** The restricted settings this workspace sets for a launch, checked like the user's own. */
function workspaceLaunchOverrides(): {
  overrides: WorkspaceOverride[];
  command: ServerCommand | null;
  env: Record<string, string> | null;
} {
  const rawCommand = workspaceValue('serverCommand');
  const rawEnv = workspaceValue('serverEnv');
  const overrides: WorkspaceOverride[] = [];
  if (rawCommand !== undefined) overrides.push({ key: 'stageLens.serverCommand', value: rawCommand });
  if (rawEnv !== undefined) overrides.push({ key: 'stageLens.serverEnv', value: rawEnv });
  return {
    overrides,
    command: rawCommand === undefined ? null : checkServerCommand(rawCommand),
    env: rawEnv === undefined ? null : checkServerEnv(rawEnv),
  };
}

export async function launchServer(deps: LaunchDeps, deployConfigUri?: vscode.Uri): Promise<void> {
  // Checked before anything is asked: a bad port or command is reported at once.
  const settings = launchSettings();
  const untrusted = !vscode.workspace.isTrusted;
  const workspace = untrusted ? workspaceLaunchOverrides() : { overrides: [], command: null, env: null };
  const deployConfig = deployConfigUri?.fsPath ?? (await pickDeployConfig());
  if (deployConfig === undefined) return;
  const usesModel =
    commandUses(settings.command, 'model') || (workspace.command !== null && commandUses(workspace.command, 'model'));
  let model = settings.model;
  if (usesModel) {
    const typed = await vscode.window.showInputBox({
      title: 'Stage Lens: model to serve',
      value: settings.model,
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          checkModel(v, 'model');
          return undefined;
        } catch (err) {
          return err instanceof Error ? err.message.replace(/^setting model /, 'The model ') : String(err);
        }
      },
    });
    if (typed === undefined) return;
    model = checkModel(typed, 'model');
  }
  const values = { model, deployConfig, port: settings.port };
  let argv = expandServerCommand(settings.command, values);
  let env: Record<string, string> = { ...settings.env };

  const question = launchConsentQuestion({
    trusted: !untrusted,
    commandLine: commandLine(argv, env),
    deployConfig,
    overrides: workspace.overrides,
  });
  if (question !== null) {
    const buttons = question.withWorkspace === null ? [question.launch] : [question.launch, question.withWorkspace];
    const choice = await showWarning(question.message, { modal: true, detail: question.detail }, ...buttons);
    if (choice === undefined) return;
    if (choice === question.withWorkspace) {
      if (workspace.command !== null) argv = expandServerCommand(workspace.command, values);
      if (workspace.env !== null) env = withWorkspaceEnv(env, workspace.env);
    }
  }
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? path.dirname(deployConfig);
  await startLaunch(deps, argv, cwd, deployConfig, `http://127.0.0.1:${settings.port}/metrics`, env);
}

/** The default server environment (the manifest's): what makes a vLLM-Omni server print its stats tables. */
function statsTablesEnv(): Record<string, string> {
  return checkServerEnv(SETTING_DEFAULTS.serverEnv);
}

export const RUN_DEMO_SCENARIO = 'Run the Demo Scenario';

/**
 * What the demo simulates: the deploy config when the simulator can run it; otherwise the
 * user is told why before anything launches, and only their choice runs the demo's scenario.
 */
async function demoPipeline(
  deps: LaunchDeps,
  deployConfig: string,
  scenario: string,
): Promise<'config' | 'scenario' | 'cancel'> {
  const fits = demoScenarioFor(scenario, deployConfig);
  const { cannotRun } = await deps.client.request('stageLens/demoConfigCheck', {
    deployConfig,
    ...(fits === undefined ? {} : { scenario: fits }),
  });
  if (cannotRun === null) return 'config';
  const name = vscode.workspace.asRelativePath(deployConfig);
  const choice = await showWarning(
    `Stage Lens: the demo simulator cannot run ${name}.`,
    {
      modal: true,
      detail: `${cannotRun}\n\n${RUN_DEMO_SCENARIO} simulates the demo's own scenario instead (${scenario}, the stageLens.demo.scenario setting); its numbers are not matched to ${name}.`,
    },
    RUN_DEMO_SCENARIO,
  );
  return choice === RUN_DEMO_SCENARIO ? 'scenario' : 'cancel';
}

export async function startDemo(deps: LaunchDeps): Promise<string | null> {
  const demo = demoSettings();
  const active = vscode.window.activeTextEditor?.document;
  let deployConfig =
    active !== undefined && active.languageId === 'yaml' && mayBeDeployConfig(active.getText())
      ? active.uri.fsPath
      : undefined;
  if (deployConfig !== undefined) {
    const pipeline = await demoPipeline(deps, deployConfig, demo.scenario);
    if (pipeline === 'cancel') return null;
    if (pipeline === 'scenario') deployConfig = undefined;
  }
  const port = await freePort();
  // The simulator ships inside the extension; run it with the extension host's Node
  // (ELECTRON_RUN_AS_NODE makes a desktop VS Code's executable behave as Node). Like a
  // real server it prints its stats tables only at DEBUG: it gets the environment Stage Lens
  // gives a launched server by default, not the user's. Of the workspace it reads only the
  // deploy config open in the editor, which it simulates (src/demoArgs.ts).
  const argv = demoSimulatorArgv({
    node: process.execPath,
    cli: deps.context.asAbsolutePath('dist/cli.js'),
    scenario: demo.scenario,
    rps: demo.rps,
    port,
    deployConfig: deployConfig ?? null,
  });
  const id = await startLaunch(
    deps,
    argv,
    deps.context.extensionPath,
    deployConfig,
    `http://127.0.0.1:${port}/metrics`,
    { ...statsTablesEnv(), ELECTRON_RUN_AS_NODE: '1' },
  );
  await deps.revealLatencyView();
  return id;
}

function describeExit(exit: SessionInfo['exit']): string {
  if (exit === null) return 'it ended';
  return exit.signal !== null ? `killed by signal ${exit.signal}` : `exited with code ${exit.code ?? '?'}`;
}

const ENDED: ReadonlySet<SessionInfo['status']> = new Set(['error', 'crashed', 'exited']);

/**
 * Tells the user, in a notification, when the launched command could not start or ended
 * by itself (the terminal shows the same line): otherwise the first sign would be a
 * scrape error about /metrics.
 */
function reportOutcome(deps: LaunchDeps, sessionId: string, terminal: ServerOutputTerminal): void {
  let reported = false;
  const report = (s: SessionInfo): void => {
    if (reported || s.id !== sessionId || !ENDED.has(s.status)) return;
    reported = true;
    sub.dispose();
    if (s.status === 'exited') return; // stopped, or ended with code 0
    const message =
      s.status === 'error'
        ? `Stage Lens could not start the server: ${s.lastError ?? 'unknown error'}`
        : `Stage Lens: the server stopped: ${s.lastError ?? describeExit(s.exit)}`;
    void showError(message, 'Show Output').then((choice) => {
      if (choice === 'Show Output') terminal.terminal.show();
    });
  };
  const sub = deps.client.onDidUpdateSession(report);
  deps.context.subscriptions.push(sub);
  const now = deps.client.allSessions().find((s) => s.id === sessionId);
  if (now !== undefined) report(now);
}

async function startLaunch(
  deps: LaunchDeps,
  argv: string[],
  cwd: string,
  deployConfig: string | undefined,
  metricsUrl: string,
  env: Record<string, string>,
): Promise<string | null> {
  try {
    const info = await deps.client.request('stageLens/launch', {
      argv,
      cwd,
      env,
      metricsUrl,
      ...(deployConfig === undefined ? {} : { deployConfig }),
    });
    deps.client.setCurrent(info.id);
    // The server writes the first line (the environment it added and the argument vector)
    // and every status line; output that arrived before this terminal existed is replayed.
    const terminal = deps.openTerminal(info.id, `Stage Lens: ${path.basename(argv[0] ?? 'server')}`);
    terminal.terminal.show(true);
    reportOutcome(deps, info.id, terminal);
    return info.id;
  } catch (err) {
    void showError(`Stage Lens could not launch ${argv[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
