// Activation entry point (filled in by the editor issue).
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // wired in later steps
}

export function deactivate(): void {}
