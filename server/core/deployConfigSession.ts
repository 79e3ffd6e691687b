// Which session a deploy config shows when several are tied to it (launched with it, imported
// with it, matched to it): first one that has per-request numbers to show, or may yet have
// them (a /metrics or Prometheus session has none; a launch that never started, or any session
// that ended without a request, has none either: it claims nothing while another has numbers);
// among those a live one first, since its numbers are the ones moving now; else the one started
// or imported last. The inlay numbers and their hover (language server) and the code lens
// "Latency Details for stage N" (extension) all choose with this, so the file and the panel it
// opens show the same session. Structural types: the core does not import the protocol. The
// caller says which paths are the file, because only it may resolve paths.

export interface ConfigSessionCandidate {
  readonly id: string;
  /** `launch`, `tail`, `import`, `attach` (a log: per-request numbers), `scrape`, `prometheus` (none). */
  readonly kind: string;
  readonly status: string;
  readonly requestCount: number;
  /** ms since epoch: when it was launched, attached or imported. */
  readonly startedAt: number;
  readonly deployConfig: string | null;
}

/** Kinds of session that read aggregates (/metrics, a Prometheus server), never a request's stage times. */
const NO_REQUEST_NUMBERS: ReadonlySet<string> = new Set(['scrape', 'prometheus']);

export const isLiveSession = (s: { readonly status: string }): boolean =>
  s.status === 'running' || s.status === 'starting';

/** Whether the session reads per-request stage times at all (not only /metrics or Prometheus). */
export const readsRequests = (s: { readonly kind: string }): boolean => !NO_REQUEST_NUMBERS.has(s.kind);

/** It has per-request numbers, or may still get them (live). */
export const mayShowNumbers = (s: Pick<ConfigSessionCandidate, 'kind' | 'status' | 'requestCount'>): boolean =>
  readsRequests(s) && (isLiveSession(s) || s.requestCount > 0);

function ranksAbove(a: ConfigSessionCandidate, b: ConfigSessionCandidate): boolean {
  if (mayShowNumbers(a) !== mayShowNumbers(b)) return mayShowNumbers(a);
  if (isLiveSession(a) !== isLiveSession(b)) return isLiveSession(a);
  if (a.startedAt !== b.startedAt) return a.startedAt > b.startedAt;
  // Same millisecond: any fixed order, so every caller picks the same one.
  return a.id > b.id;
}

/**
 * The session whose numbers the deploy config `isThisConfig` accepts shows, or undefined when
 * none is tied to it. One without numbers is chosen only when no other is tied to the file
 * (its hint then says why there are none).
 */
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
