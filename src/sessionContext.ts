// Context keys for the session state, used in package.json `when` clauses: commands that
// need a session (Stop Capture, Export Session...) are hidden from the palette without one.
//   stageLens.hasSession      some session is known (live or saved)
//   stageLens.hasLiveSession  some session is capturing
import * as vscode from 'vscode';
import type { StageLensClient } from './client';

export class SessionContextKeys implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  private last = '';

  constructor(private readonly client: StageLensClient) {
    this.subscription = client.onDidChangeSessions(() => this.update());
    this.update();
  }

  private update(): void {
    const sessions = this.client.allSessions();
    const hasSession = sessions.length > 0;
    const hasLive = sessions.some((s) => s.status === 'running' || s.status === 'starting');
    const key = `${hasSession}/${hasLive}`;
    if (key === this.last) return;
    this.last = key;
    void vscode.commands.executeCommand('setContext', 'stageLens.hasSession', hasSession);
    void vscode.commands.executeCommand('setContext', 'stageLens.hasLiveSession', hasLive);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
