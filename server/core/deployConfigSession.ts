// Which session a deploy config shows when several are tied to it (launched with it, imported
// with it, matched to it): a live one first, since its numbers are the ones moving now; else
// the one started or imported last. The inlay numbers and their hover (language server) and
// the code lens "Latency Details for stage N" (extension) all choose with this, so the file
// and the panel it opens show the same session. Structural types: the core does not import
// the protocol. The caller says which paths are the file, because only it may resolve paths.

export interface ConfigSessionCandidate {
  readonly id: string;
  readonly status: string;
  /** ms since epoch: when it was launched, attached or imported. */
  readonly startedAt: number;
  readonly deployConfig: string | null;
}

const isLive = (s: ConfigSessionCandidate): boolean => s.status === 'running' || s.status === 'starting';

function ranksAbove(a: ConfigSessionCandidate, b: ConfigSessionCandidate): boolean {
  if (isLive(a) !== isLive(b)) return isLive(a);
  if (a.startedAt !== b.startedAt) return a.startedAt > b.startedAt;
  // Same millisecond: any fixed order, so every caller picks the same one.
  return a.id > b.id;
}

/** The session whose numbers the deploy config `isThisConfig` accepts shows, or undefined when none is tied to it. */
export function sessionForDeployConfig<S extends ConfigSessionCandidate>(
  sessions: Iterable<S>,
  isThisConfig: (deployConfig: string) => boolean,
): S | undefined {
  let chosen: S | undefined;
  for (const s of sessions) {
    if (s.deployConfig === null || !isThisConfig(s.deployConfig)) continue;
    if (chosen === undefined || ranksAbove(s, chosen)) chosen = s;
  }
  return chosen;
}
