// The extension's notifications, status bar messages and progress titles. Their text holds file
// names, session titles, pod names and errors taken from logs; a notification draws
// `[label](target)` as a link, the status bar and a window progress title draw `$(name)` as an
// icon, so every such text goes through server/core/plainText.ts here. The commands call these,
// never vscode.window's own (eslint.config.mjs forbids those elsewhere).
import * as vscode from 'vscode';
import { withoutIcons, withoutLinks } from '../server/shared';

type Show = typeof vscode.window.showInformationMessage;

function plain(show: (message: string, ...rest: never[]) => Thenable<unknown>): Show {
  return ((message: string, ...rest: never[]) => show(withoutLinks(message), ...rest)) as Show;
}

/* eslint-disable no-restricted-syntax -- the one place that calls VS Code's own. */
export const showInformation: Show = plain((m, ...r) => vscode.window.showInformationMessage(m, ...r));
export const showWarning: typeof vscode.window.showWarningMessage = plain((m, ...r) =>
  vscode.window.showWarningMessage(m, ...r),
);
export const showError: typeof vscode.window.showErrorMessage = plain((m, ...r) =>
  vscode.window.showErrorMessage(m, ...r),
);

/** A status bar message for `ms`: our own codicon `icon` (a name such as `check`), then `text` as written. */
export function showStatusMessage(icon: string, text: string, ms: number): vscode.Disposable {
  return vscode.window.setStatusBarMessage(`$(${icon}) ${withoutIcons(text)}`, ms);
}

/**
 * vscode.window.withProgress with its title as written: in the window's status bar a title
 * draws icons, in a notification links.
 */
export function withTitledProgress<R>(
  options: vscode.ProgressOptions & { readonly title: string },
  task: (
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ) => Thenable<R>,
): Thenable<R> {
  const title =
    options.location === vscode.ProgressLocation.Notification
      ? withoutLinks(options.title)
      : withoutIcons(options.title);
  return vscode.window.withProgress({ ...options, title }, task);
}
/* eslint-enable no-restricted-syntax */
