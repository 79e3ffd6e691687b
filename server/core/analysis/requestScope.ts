// A view of some of a log's requests (one server boot, a time window, cold starts left out), in
// words for the findings about the log as a whole: those count the log's requests, then say how
// many of them the view holds, so a figure of the log is never read as the view's.
import { countOf } from '../numberText';

/** What a view keeps of a log's requests; all of them when nothing is set. */
export interface RequestScope {
  readonly boot?: number;
  /** One server of a merged log (its tag). */
  readonly server?: string;
  /** A time window (--since/--until, the last minutes of a capture, a range of the chart). */
  readonly window?: boolean;
  readonly excludeCold?: boolean;
}

/** The requests a view holds of the log's, with the view's name in words (requestScopeWords). */
export interface RequestsInScope {
  readonly words: string;
  readonly requests: number;
}

/**
 * "boot 2", "the window", "the window of boot 2", "server pod/vllm-1/vllm", "boot 2 of server …",
 * "the scope", each with " (cold starts left out)" when they are; null for the whole log.
 */
export function requestScopeWords(scope: RequestScope): string | null {
  const window = scope.window === true;
  const cold = scope.excludeCold === true ? ' (cold starts left out)' : '';
  const windowOf = window ? 'the window of ' : '';
  if (scope.server !== undefined)
    return `${windowOf}${scope.boot === undefined ? '' : `boot ${scope.boot} of `}server ${scope.server}${cold}`;
  if (scope.boot !== undefined) return `${windowOf}boot ${scope.boot}${cold}`;
  if (window) return `the window${cold}`;
  return cold === '' ? null : `the scope${cold}`;
}

/**
 * "the log's 8 requests before it are read, 2 of them in boot 2": `logRequests` of the log, and
 * how many of them `scope` holds (the whole log's words when it is null).
 */
export function logRequestsReadText(logRequests: number, scope: RequestsInScope | null): string {
  if (logRequests === 0) return 'no request came before it';
  const verb = logRequests === 1 ? 'is' : 'are';
  if (scope === null) return `the ${countOf(logRequests, 'request')} before it ${verb} read`;
  return `the log's ${countOf(logRequests, 'request')} before it ${verb} read, ${inScopeText(logRequests, scope)}`;
}

/** "2 of them in boot 2", "all of them in the window", "none of them in …"; of one request "in …" or "not in …". */
export function inScopeText(logRequests: number, { words, requests }: RequestsInScope): string {
  if (logRequests === 1) return `${requests === 0 ? 'not ' : ''}in ${words}`;
  if (requests === 0) return `none of them in ${words}`;
  return `${requests === logRequests ? 'all' : requests} of them in ${words}`;
}
