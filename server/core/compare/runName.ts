// How Compare names each run, computed the same way by the language server (the result) and
// the extension host (while it loads): a session by its title, a file or folder read from
// disk by its name. An imported log is named by its file alone: its session title ends with
// the import time, which says nothing of when the run happened (the log's own timestamps
// do, RunSummary.logSpan) and would make a baseline imported later look newer.

export interface CompareRunName {
  /** "before-fix.log", "before-fix.log · qwen3_tts.yaml", or a live session's title. */
  readonly name: string;
  /** A log imported as a session. */
  readonly imported: boolean;
  /** The whole path or the session's source, for hover. */
  readonly detail: string;
}

/** What of a session names it (SessionInfo satisfies it). */
export interface NamedSession {
  readonly kind: string;
  readonly title: string;
  readonly description: string;
  readonly deployConfig: string | null;
}

/** The last segment of a POSIX or Windows path (no node:path: the webviews bundle this). */
export function baseName(p: string): string {
  // Trailing separators trimmed by a loop: a regex over a run of them backtracks.
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  const trimmed = p.slice(0, end);
  const at = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return trimmed.slice(at + 1) || trimmed;
}

export function runNameOfSession(s: NamedSession): CompareRunName {
  if (s.kind !== 'import') return { name: s.title, imported: false, detail: s.description };
  const file = baseName(s.description);
  const deploy = s.deployConfig === null || s.deployConfig === '' ? null : baseName(s.deployConfig);
  return { name: deploy === null ? file : `${file} · ${deploy}`, imported: true, detail: s.description };
}

export function runNameOfPath(p: string): CompareRunName {
  return { name: baseName(p), imported: false, detail: p };
}
