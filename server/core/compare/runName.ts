// How Compare names each run, computed the same way by the language server (the result) and
// the extension host (while it loads): a session by its title, a file or folder read from
// disk by its name. An imported log is named as everywhere else (../sessionName.ts) without its
// log span, which Compare shows beside the name as a fact of the run.
import { baseName } from '../baseName';
import { importedRunName } from '../sessionName';

export interface CompareRunName {
  /** "before-fix.log", "before-fix.log · qwen3_tts.yaml", "before-fix.log (2)", or a live session's title. */
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
  readonly importOrdinal?: number;
}

export function runNameOfSession(s: NamedSession): CompareRunName {
  if (s.kind !== 'import') return { name: s.title, imported: false, detail: s.description };
  const name = importedRunName({ path: s.description, deployConfig: s.deployConfig, ordinal: s.importOrdinal });
  return { name, imported: true, detail: s.description };
}

export function runNameOfPath(p: string): CompareRunName {
  return { name: baseName(p), imported: false, detail: p };
}
