// A server selection of a merged log in words (the CLI's --server, the views' server pick): the
// servers a log has, why a selection read nothing, what it left out.
import type { ServerCounts } from './types';
import { andList } from '../andList';
import { countOf } from '../numberText';
import { shellQuote } from '../shellWords';

/** A server of a merged log with its requests, as a view offers it. */
interface ServerChoice {
  readonly server: string;
  readonly requests: number;
}

/** The views' first option: every request of the session, each server's and those of lines with no server's tag. */
export function allServersLabel(servers: readonly ServerChoice[], untaggedRequests: number): string {
  const total = servers.reduce((n, s) => n + s.requests, untaggedRequests);
  return `All servers (${countOf(total, 'request')})`;
}

/** A view's option for one server: `pod/vllm-omni-0/vllm (6 requests)`. */
export function serverPickLabel(s: ServerChoice): string {
  return `${s.server} (${countOf(s.requests, 'request')})`;
}

/** What a view's numbers are over when it picked server `selected`, and what that leaves out. */
export function viewServerNote(selected: string, servers: readonly ServerChoice[], untaggedRequests: number): string {
  const requests = servers.find((s) => s.server === selected)?.requests ?? 0;
  const leftOut =
    untaggedRequests === 0
      ? ''
      : ` The ${countOf(untaggedRequests, 'untagged request')} (lines with no server's tag) ${untaggedRequests === 1 ? 'is' : 'are'} left out.`;
  return `Numbers of server ${selected} only: its ${countOf(requests, 'request')}, as \`stage-lens analyze --server ${shellQuote(selected)}\` reads them.${leftOut}`;
}

/** The servers a log has, in words: "pod/vllm-0/vllm (6 requests) and pod/vllm-1/vllm (3 requests)". */
export function serverListText(servers: ServerCounts['servers']): string {
  return andList(servers.map(serverPickLabel));
}

/** Why --server read nothing: the log has no request of that server (with the servers it has); null when it has. */
export function unknownServerProblem(counts: ServerCounts | null): string | null {
  if (counts === null || counts.servers.some((s) => s.server === counts.server)) return null;
  // With a boot selected, the servers are that boot's: each server's boots are its own.
  const boot = counts.boot;
  const head = `the log has no request of server '${counts.server}'${boot === undefined ? '' : ` in boot ${boot}`}`;
  if (counts.servers.length === 0)
    return `${head}: no line of it carries a server's tag (kubectl logs --prefix, docker compose logs or stern write them when they merge several servers' logs)`;
  if (boot !== undefined)
    return `${head}: boot ${boot}'s servers are ${serverListText(counts.servers)}; each server numbers its own starts, so one that did not restart has no boot ${boot}`;
  return `${head}: its servers are ${serverListText(counts.servers)}; give the name as listed`;
}

/** A followed log with requests of other servers only so far: which, while the one selected may still come. */
export function noServerRequestYetText(counts: ServerCounts): string {
  const others =
    counts.servers.length === 0
      ? "none of its lines so far carries a server's tag"
      : `the log's servers so far are ${serverListText(counts.servers)}`;
  return `No request of server ${counts.server} yet: ${others}.`;
}

/** The server kept and what it left out, in words (null: no server selected, or one the log lacks). */
export function serverNoteOf(counts: ServerCounts | null): string | null {
  if (counts === null || unknownServerProblem(counts) !== null) return null;
  const others = counts.servers.filter((s) => s.server !== counts.server);
  const otherRequests = counts.outside - counts.untagged;
  const untagged =
    counts.untagged === 0 ? '' : ` ${countOf(counts.untagged, 'request')} of lines with no server's tag left out.`;
  return (
    `Server ${counts.server}: the requests of that server only; ` +
    (others.length === 0
      ? `the log has no other server.${untagged}`
      : `${countOf(otherRequests, 'request')} of ${andList(others.map((s) => s.server))} left out.${untagged}`)
  );
}
