// A Kubernetes container's log as the kubelet keeps it (`/var/log/containers/<pod>_<ns>_<container>-<id>.log`,
// the file Attach to Running Server follows for a pod; containerd and CRI-O write it): each line
// `<RFC 3339 time> <stdout|stderr> <F|P> <the line>`. The time is read as a CI runner's timestamp
// (stampEndOf); what follows it is skipped here, so the scanner reads vLLM's prefix after it.

/** Where the line goes on after `stdout F ` (or `stderr`, or the `P` of a line the runtime split) at `at`; `at` without it. */
export function criStreamEnd(line: string, at: number): number {
  if (!(line.startsWith('stdout ', at) || line.startsWith('stderr ', at))) return at;
  const tag = line.charCodeAt(at + 7);
  return (tag === 70 /* F */ || tag === 80) /* P */ && line.charCodeAt(at + 8) === 32 /* space */ ? at + 9 : at;
}
