// An editor terminal fed by a launched server's captured output, so the user sees
// exactly what the server prints (colours included). Closing it does not stop capture.
import * as vscode from 'vscode';

export class ServerOutputTerminal implements vscode.Disposable {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly buffered: string[] = [];
  private opened = false;
  readonly terminal: vscode.Terminal;

  constructor(name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writeEmitter.event,
      open: () => {
        this.opened = true;
        for (const text of this.buffered.splice(0)) this.writeEmitter.fire(text);
      },
      close: () => {
        this.opened = false;
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('pulse') });
  }

  write(text: string): void {
    if (this.opened) this.writeEmitter.fire(text);
    else if (this.buffered.length < 10_000) this.buffered.push(text);
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.terminal.dispose();
  }
}

/**
 * Raw output of sessions that have no terminal yet, kept briefly: a launch's first lines
 * are sent while the launch request is still being answered. Bounded: only the newest few
 * sessions, and a few hundred chunks each (sessions that never get a terminal, such as a
 * tailed file, fall out).
 */
export class EarlyOutput {
  private readonly held = new Map<string, string[]>();

  constructor(
    private readonly maxSessions = 8,
    private readonly maxChunks = 200,
  ) {}

  hold(sessionId: string, text: string): void {
    let chunks = this.held.get(sessionId);
    if (chunks === undefined) {
      this.held.set(sessionId, (chunks = []));
      while (this.held.size > this.maxSessions) this.held.delete(this.held.keys().next().value as string);
    }
    if (chunks.length < this.maxChunks) chunks.push(text);
  }

  take(sessionId: string): string[] {
    const chunks = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    return chunks;
  }
}
