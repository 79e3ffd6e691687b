// Which open YAML documents may be vLLM-Omni deploy configs (a cheap content check, no
// parse): their paths go into the context key `stageLens.deployConfigs`, so the editor
// title's play button and the deploy-config commands show on those files only
// (`resourcePath in stageLens.deployConfigs`), and the first one seen starts the language
// server. A window with YAML files that are not deploy configs starts no language server.
// The workbench's `resourcePath` is the file's fsPath, or the URI's path for a remote file
// (the renderer sees vscode-remote:// URIs where the extension sees file://): both are
// published.
import * as vscode from 'vscode';
import { mayBeDeployConfig } from '../server/shared';

export const DEPLOY_CONFIGS_CONTEXT = 'stageLens.deployConfigs';

/** An edit is looked at again after this quiet time (the check reads the whole text). */
const RECHECK_MS = 300;

export class DeployConfigTracker implements vscode.Disposable {
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];
  private published = '';

  constructor(private readonly onDeployConfig: () => void) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.recheckSoon(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri.toString())),
    );
    for (const d of vscode.workspace.textDocuments) this.check(d, false);
    this.publish();
  }

  /** Whether `uri` is an open document that looks like a deploy config. */
  has(uri: vscode.Uri): boolean {
    return this.uris.has(uri.toString());
  }

  private check(document: vscode.TextDocument, publish = true): void {
    const key = document.uri.toString();
    if (document.languageId === 'yaml' && mayBeDeployConfig(document.getText())) {
      this.uris.set(key, document.uri);
      this.onDeployConfig();
    } else {
      this.uris.delete(key);
    }
    if (publish) this.publish();
  }

  private recheckSoon(document: vscode.TextDocument): void {
    if (document.languageId !== 'yaml') return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.check(document);
      }, RECHECK_MS),
    );
  }

  private forget(key: string): void {
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    if (this.uris.delete(key)) this.publish();
  }

  private publish(): void {
    const value = [...new Set([...this.uris.values()].flatMap((u) => [u.fsPath, u.path]))].sort();
    const text = value.join('\n');
    if (text === this.published) return;
    this.published = text;
    void vscode.commands.executeCommand('setContext', DEPLOY_CONFIGS_CONTEXT, value);
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
