// A tool that merges the logs of several servers (pods, containers) into one stream tags each
// line with where it came from: `kubectl logs --prefix` `[pod/<pod>/<container>] `, `docker
// compose logs` `<container>  | ` (padded to the longest name), stern `<pod> <container> `.
// Two servers print the same vLLM prefix (`(APIServer pid=1)` in every container), so their
// tables, interleaved line by line, are told apart by the tag alone: it is part of the
// process a record belongs to. Read at the start of a line (ANSI colours already removed).
import { MAX_SOURCE_TAG } from './prefixLimits';

export interface SourceTag {
  /** `pod/<pod>/<container>`, the compose container's name, `<pod>/<container>` (stern). */
  readonly source: string;
  /** Where the line goes on after the tag. */
  readonly end: number;
}

/** The tag at the start of `line`, or null. */
export function sourceTagOf(line: string): SourceTag | null {
  const c = line.charCodeAt(0);
  if (c === 91 /* [ */) return kubectlTag(line);
  return isNameChar(c) ? (composeTag(line) ?? sternTag(line)) : null;
}

/** `[pod/<pod>/<container>] ` */
function kubectlTag(line: string): SourceTag | null {
  if (!line.startsWith('[pod/')) return null;
  const podEnd = nameEndFrom(line, 5);
  if (podEnd === -1 || line.charCodeAt(podEnd) !== 47 /* / */) return null;
  const containerEnd = nameEndFrom(line, podEnd + 1);
  if (containerEnd === -1 || line.charCodeAt(containerEnd) !== 93 /* ] */) return null;
  return line.charCodeAt(containerEnd + 1) === 32 /* space */
    ? { source: line.slice(1, containerEnd), end: containerEnd + 2 }
    : null;
}

/** `<name><at least two spaces>| `: compose pads the name one space past the longest, then ` | `. */
function composeTag(line: string): SourceTag | null {
  const nameEnd = nameEndFrom(line, 0);
  if (nameEnd === -1 || line.charCodeAt(nameEnd) !== 32 /* space */ || line.charCodeAt(nameEnd + 1) !== 32) return null;
  // The padding: up to the longest name of the others.
  const stop = Math.min(line.length, nameEnd + MAX_SOURCE_TAG + 2);
  let i = nameEnd + 2;
  while (i < stop && line.charCodeAt(i) === 32 /* space */) i++;
  if (line.charCodeAt(i) !== 124 /* | */ || line.charCodeAt(i + 1) !== 32 /* space */) return null;
  return { source: line.slice(0, nameEnd), end: i + 2 };
}

/**
 * `<pod> <container> ` directly before vLLM's process prefix `(`: stern's default template. Both
 * are Kubernetes names (lower case) and a pod's has a `-` (`vllm-omni-0`, `<deployment>-<hash>-<id>`),
 * so that words another writer left unended before a record (`Loading weights (APIServer …`) are not one.
 */
function sternTag(line: string): SourceTag | null {
  const podEnd = nameEndFrom(line, 0);
  if (podEnd === -1 || line.charCodeAt(podEnd) !== 32 /* space */) return null;
  const containerEnd = nameEndFrom(line, podEnd + 1);
  if (containerEnd === -1 || line.charCodeAt(containerEnd) !== 32 /* space */) return null;
  const pod = line.slice(0, podEnd);
  const container = line.slice(podEnd + 1, containerEnd);
  if (!isKubernetesName(pod) || !isKubernetesName(container) || !pod.includes('-')) return null;
  // Anything else before the prefix is another writer's unended output, not a tag.
  if (line.charCodeAt(containerEnd + 1) !== 40 /* ( */) return null;
  return { source: `${pod}/${container}`, end: containerEnd + 1 };
}

/** Lower-case letters, digits, `-` and `.` (RFC 1123), as Kubernetes names its pods and containers. */
function isKubernetesName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 /* a */ && c <= 122) /* z */ || (c >= 48 /* 0 */ && c <= 57) /* 9 */ || c === 45 || c === 46))
      return false;
  }
  return true;
}

/** Where a name (pod, container, compose service: letters, digits, `-`, `_`, `.`) that starts at `start` ends; -1 if none or too long. */
function nameEndFrom(line: string, start: number): number {
  const stop = Math.min(line.length, start + MAX_SOURCE_TAG + 1);
  let i = start;
  while (i < stop && isNameChar(line.charCodeAt(i))) i++;
  return i === start || i - start > MAX_SOURCE_TAG ? -1 : i;
}

function isNameChar(c: number): boolean {
  return (
    (c >= 97 /* a */ && c <= 122) /* z */ ||
    (c >= 48 /* 0 */ && c <= 57) /* 9 */ ||
    c === 45 /* - */ ||
    c === 46 /* . */ ||
    c === 95 /* _ */ ||
    (c >= 65 /* A */ && c <= 90) /* Z */
  );
}
