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
