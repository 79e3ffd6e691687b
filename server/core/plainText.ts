// Text from a log or a file name shown in VS Code's own UI, not in a webview. Quick picks, the
// status bar and progress titles draw `$(name)` as a codicon; a notification draws
// `[label](https://… | command:… | file:…)` as a link that opens or runs what it names. A file
// named `[Fix](command:workbench.action.terminal.new).log`, a model name or a pod name in a log
// could so put an icon or a link in our text. These keep such text as it was written. No vscode
// runtime (unit-tested in Node).

/** `$(name)` shown as written where VS Code draws codicons: VS Code's own escape, a backslash before it. */
export function withoutIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/**
 * The text with no `[label](target)` a notification would draw as a link: a zero-width space
 * between `]` and `(` (VS Code's notifications have no escape), so it reads as written.
 */
export function withoutLinks(text: string): string {
  return text.replace(/\]\(/g, ']\u200b(');
}
