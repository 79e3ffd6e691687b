// What Export Session says once the file is written, and the actions it offers. Free of the
// VS Code API (unit-tested).
import type { ExportFormat, ExportResult } from '../server/protocol';
import { countOf } from '../server/shared';

export const OPEN_ACTION = 'Open';

/** "Stage Lens exported 1 request to /tmp/run.json.", with where to open a trace. */
export function exportedMessage(result: Pick<ExportResult, 'path' | 'requestCount'>, format: ExportFormat): string {
  const hint = format === 'trace' ? ' Open it in Perfetto (ui.perfetto.dev).' : '';
  return `Stage Lens exported ${countOf(result.requestCount, 'request')} to ${result.path}.${hint}`;
}

/** The reveal action named as VS Code names it on each platform (its explorer's "Reveal in ..."). */
export function revealActionLabel(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Reveal in Finder';
  if (platform === 'win32') return 'Reveal in File Explorer';
  return 'Open Containing Folder';
}
