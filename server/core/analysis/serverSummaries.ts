// A log that merges several servers' (kubectl --prefix, docker compose, stern) names the server of
// each request (AnalyzedRequest.server). Per server: how many requests, and their end-to-end time,
// each request's own (endToEndOf), so that a slow pod shows beside the others.
import { endToEndOf } from './endToEnd';
import { SampleSet } from './sampleSet';
import type { AnalyzedRequest, Distribution } from './types';

export interface ServerSummary {
  /** The server's tag: `pod/vllm-omni-0/vllm`, a compose container's name, `<pod>/<container>` (stern). */
  readonly server: string;
  readonly requests: number;
  /** End to end (ms) over its requests that printed one; null when none did. */
  readonly e2eMs: Distribution | null;
}

/** At most this many servers are summarized: beyond, a merged log is not a handful of pods. */
const MAX_SERVERS = 256;

export class ServerSummaries {
  private readonly servers = new Map<string, { requests: number; e2e: SampleSet }>();

  add(request: AnalyzedRequest): void {
    const server = request.server;
    if (server === undefined) return;
    let entry = this.servers.get(server);
    if (entry === undefined) {
      if (this.servers.size >= MAX_SERVERS) return;
      this.servers.set(server, (entry = { requests: 0, e2e: new SampleSet() }));
    }
    entry.requests += 1;
    const e2e = endToEndOf(request);
    if (e2e !== null) entry.e2e.add(e2e.ms);
  }

  /** Per server, by name; null when no request named one (a log of one server). */
  summary(): ServerSummary[] | null {
    if (this.servers.size === 0) return null;
    return [...this.servers]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([server, { requests, e2e }]) => ({ server, requests, e2eMs: e2e.distribution() }));
  }
}
