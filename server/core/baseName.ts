// The last segment of a path, POSIX or Windows, without node:path: the webviews bundle it,
// and the core names files by what the caller passed (a Windows path read on Linux included).

/** `qwen3_tts.yaml` of `/w/qwen3_tts.yaml` or `C:\\w\\qwen3_tts.yaml`; trailing separators ignored; `/` stays `/`. */
export function baseName(p: string): string {
  // Trailing separators trimmed by a loop: a regex over a run of them backtracks.
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  const trimmed = p.slice(0, end);
  const at = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return trimmed.slice(at + 1) || trimmed;
}
