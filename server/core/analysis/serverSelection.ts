// One server of a log that merges several servers' (--server, compare's --baseline-server and
// --candidate-server): which records and requests are its, and what the others gave (ServerCounts).
import type { AnalyzedRequest, ServerCounts } from './types';

export class ServerSelection {
  /** Requests per server seen by `keep` ('' for those of no server's tag). */
  private readonly requests = new Map<string, number>();
  private outside = 0;

  /** `server`: the tag selected; null: every server (nothing is counted). */
  constructor(readonly server: string | null) {}

  /** Whether a record printed by `source` (none: no server's tag) is of the server selected, or none is. */
  has(source: string | null | undefined): boolean {
    return this.server === null || this.server === source;
  }

  /** Counts a request; whether it is of the server selected (or none is). */
  keep(request: AnalyzedRequest): boolean {
    if (this.server === null) return true;
    const server = request.server ?? '';
    this.requests.set(server, (this.requests.get(server) ?? 0) + 1);
    if (server === this.server) return true;
    this.outside += 1;
    return false;
  }

  /** The server selected, the requests left out and every server's; null without a selection. */
  counts(): ServerCounts | null {
    if (this.server === null) return null;
    const servers = [...this.requests]
      .filter(([name]) => name !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([server, requests]) => ({ server, requests }));
    return { server: this.server, outside: this.outside, servers, untagged: this.requests.get('') ?? 0 };
  }
}
