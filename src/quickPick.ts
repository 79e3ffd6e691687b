// The extension's quick picks. Their rows hold session titles, file names, pod names and
// Prometheus label values taken from logs and servers; a quick pick draws `$(name)` in a row's
// label, description and detail as an icon, so each is shown through withoutIcons (server/core/plainText.ts).
// An icon of our own is a row's iconPath. The commands call this, never
// vscode.window.showQuickPick (eslint.config.mjs forbids it elsewhere).
import * as vscode from 'vscode';
import { withoutIcons } from '../server/shared';

/** The row the user picked (one of `items` itself), or undefined when the pick was left. */
export async function showPick<T extends string | vscode.QuickPickItem>(
  items: readonly T[],
  options: vscode.QuickPickOptions,
): Promise<T | undefined> {
  const shown = items.map((item) => (typeof item === 'string' ? { label: withoutIcons(item) } : plainRow(item)));
  // eslint-disable-next-line no-restricted-syntax -- the one place that calls VS Code's own.
  const picked = await vscode.window.showQuickPick(shown, options);
  return picked === undefined ? undefined : items[shown.indexOf(picked)];
}

function plainRow(item: vscode.QuickPickItem): vscode.QuickPickItem {
  return {
    ...item,
    label: withoutIcons(item.label),
    ...(item.description === undefined ? {} : { description: withoutIcons(item.description) }),
    ...(item.detail === undefined ? {} : { detail: withoutIcons(item.detail) }),
  };
}
