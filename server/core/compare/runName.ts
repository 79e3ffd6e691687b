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
  /** The one server of a merged log compared (compare --baseline-server/--candidate-server); absent: every server. */
  readonly server?: string;
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

/** A run of which one server boot, or one server of a merged log, is compared (null or undefined: every one). */
export function runNameWithBoot(
  run: CompareRunName,
  boot: number | null | undefined,
  server: string | null = null,
): CompareRunName {
  return {
    ...run,
    ...(boot === null || boot === undefined ? {} : { boot }),
    ...(server === null ? {} : { server }),
  };
}

/** What of a run is compared, in words: "boot 2, server pod/a"; null for the whole run. */
export function runQualifiers(boot: number | undefined, server: string | undefined): string | null {
  const qualifiers = [
    ...(boot === undefined ? [] : [`boot ${boot}`]),
    ...(server === undefined ? [] : [`server ${server}`]),
  ];
  return qualifiers.length === 0 ? null : qualifiers.join(', ');
}

/** The run's name as shown: "server.log (boot 2, server pod/a)" with a boot and a server, as the CLI's report names it. */
export function shownRunName(run: CompareRunName): string {
  const qualifiers = runQualifiers(run.boot, run.server);
  return qualifiers === null ? run.name : `${run.name} (${qualifiers})`;
}
