// Launch Server..., Launch With This Deploy Config, Start Demo Server.
import * as vscode from 'vscode';
import * as net from 'node:net';
import * as path from 'node:path';
import type { StageLensClient } from '../client';
import { DEFAULT_SERVER_COMMAND, expandServerCommand } from '../launchCommand';
import type { ServerOutputTerminal } from '../terminal';

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

/**
 * The server command template, refusing one that comes from workspace settings in an
 * untrusted workspace unless the user confirms (a workspace could make us run anything).
 */
async function trustedServerCommand(): Promise<string | null> {
  const inspected = vscode.workspace.getConfiguration('stageLens').inspect<string>('serverCommand');
  const fromWorkspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  if (fromWorkspace !== undefined && !vscode.workspace.isTrusted) {
    const choice = await vscode.window.showWarningMessage(
      `This workspace is not trusted, and its settings set the server command to:\n\n${fromWorkspace}\n\nStage Lens does not run commands from an untrusted workspace's settings unless you confirm.`,
      { modal: true },
      'Run This Command',
      'Use My Default',
    );
    if (choice === 'Run This Command') return fromWorkspace;
    if (choice === 'Use My Default') return inspected?.globalValue ?? inspected?.defaultValue ?? DEFAULT_SERVER_COMMAND;
    return null;
  }
  return vscode.workspace.getConfiguration('stageLens').get<string>('serverCommand') ?? DEFAULT_SERVER_COMMAND;
}

async function pickDeployConfig(): Promise<string | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  const files = await vscode.workspace.findFiles('**/*.{yaml,yml}', '**/node_modules/**', 200);
  const items = files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f }));
  if (active !== undefined && /\.ya?ml$/.test(active.fileName)) items.unshift({ label: `${vscode.workspace.asRelativePath(active.uri)} (active editor)`, uri: active.uri });
  const picked = await vscode.window.showQuickPick([...items, { label: 'Browse...', uri: undefined as unknown as vscode.Uri }], { title: 'Stage Lens: deploy config (--deploy-config)' });
  if (picked === undefined) return undefined;
  if (picked.label === 'Browse...') {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Deploy YAML': ['yaml', 'yml'] } });
    return chosen?.[0]?.fsPath;
  }
  return picked.uri.fsPath;
}

export async function launchServer(deps: LaunchDeps, deployConfigUri?: vscode.Uri): Promise<void> {
  const template = await trustedServerCommand();
  if (template === null) return;
  const config = vscode.workspace.getConfiguration('stageLens');
  const deployConfig = deployConfigUri?.fsPath ?? (await pickDeployConfig());
  if (deployConfig === undefined) return;
  const model = await vscode.window.showInputBox({ title: 'Stage Lens: model to serve', value: config.get<string>('model') ?? 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', ignoreFocusOut: true });
  if (model === undefined || model.trim() === '') return;
  const port = config.get<number>('port') ?? 8000;
  const argv = expandServerCommand(template, { model: model.trim(), deployConfig, port });
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? path.dirname(deployConfig);
  await startLaunch(deps, argv, cwd, deployConfig, `http://127.0.0.1:${port}/metrics`, {});
}

export async function startDemo(deps: LaunchDeps): Promise<string | null> {
  const config = vscode.workspace.getConfiguration('stageLens');
  const scenario = config.get<string>('demo.scenario') ?? 'cold-start';
  const port = await freePort();
  // The simulator ships inside the extension; run it with the extension host's Node
  // (ELECTRON_RUN_AS_NODE makes a desktop VS Code's executable behave as Node).
  const argv = [process.execPath, deps.context.asAbsolutePath('dist/cli.js'), 'simulate', '--scenario', scenario, '--talker-first-audio', '--stats-build', 'before-fix', '--debug-tables', '--color', '--port', String(port), '--rps', String(config.get<number>('demo.rps') ?? 2)];
  const deployConfig = vscode.window.activeTextEditor?.document.languageId === 'yaml' ? vscode.window.activeTextEditor.document.uri.fsPath : undefined;
  const id = await startLaunch(deps, argv, deps.context.extensionPath, deployConfig, `http://127.0.0.1:${port}/metrics`, { ELECTRON_RUN_AS_NODE: '1' });
  await deps.revealLatencyView();
  return id;
}

async function startLaunch(deps: LaunchDeps, argv: string[], cwd: string, deployConfig: string | undefined, metricsUrl: string, env: Record<string, string>): Promise<string | null> {
  try {
    const info = await deps.client.request('stageLens/launch', { argv, cwd, env, metricsUrl, ...(deployConfig === undefined ? {} : { deployConfig }) });
    deps.client.setCurrent(info.id);
    const terminal = deps.openTerminal(info.id, `Stage Lens: ${path.basename(argv[0] ?? 'server')}`);
    terminal.write(`\x1b[2m$ ${argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\x1b[0m\r\n`);
    terminal.terminal.show(true);
    return info.id;
  } catch (err) {
    void vscode.window.showErrorMessage(`Stage Lens could not launch ${argv[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
