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
  /** The one server boot of it compared (compare --baseline-boot/--candidate-boot); absent: every boot. */
  readonly boot?: number;
}

/** What of a session names it (SessionInfo satisfies it). */
export interface NamedSession {
  readonly kind: string;
  readonly title: string;
  readonly description: string;
  readonly deployConfig: string | null;
  readonly importOrdinal?: number;
  readonly earlierFiles?: number;
}

export function runNameOfSession(s: NamedSession): CompareRunName {
  if (s.kind !== 'import') return { name: s.title, imported: false, detail: s.description };
  const name = importedRunName({
    path: s.description,
    deployConfig: s.deployConfig,
    ordinal: s.importOrdinal,
    earlierFiles: s.earlierFiles,
  });
  return { name, imported: true, detail: s.description };
}

export function runNameOfPath(p: string): CompareRunName {
  return { name: baseName(p), imported: false, detail: p };
}

/** A run of which one server boot is compared (null or undefined: every boot). */
export function runNameWithBoot(run: CompareRunName, boot: number | null | undefined): CompareRunName {
  return boot === null || boot === undefined ? run : { ...run, boot };
}

/** The run's name as shown: "server.log (boot 2)" with a boot, as the CLI's report names it. */
export function shownRunName(run: CompareRunName): string {
  return run.boot === undefined ? run.name : `${run.name} (boot ${run.boot})`;
}
