// The extension's notifications. Their text holds file names, session titles, pod names and
// errors taken from logs; a notification draws `[label](target)` as a link, so every message goes
// through withoutLinks (plainText.ts). The commands call these, never vscode.window's own
// (eslint.config.mjs forbids those elsewhere).
import * as vscode from 'vscode';
import { withoutLinks } from './plainText';

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
/* eslint-enable no-restricted-syntax */
