// A container a server runs in (the protocol's ServingProcess.container), and how the attach plan
// and the editor's pick list name it.

/** A container a server runs in, told by its cgroup path (server/capture/containerLog.ts). */
export interface ServerContainer {
  readonly runtime: 'docker' | 'kubernetes' | 'podman' | 'container';
  /** The container's 64-hex id. */
  readonly id: string;
  /** Where its runtime keeps its output (Docker's json-file log, the kubelet's log); null when none was found. */
  readonly logFile: string | null;
  /** Whether this user may read logFile (a runtime's files are root's). */
  readonly logReadable: boolean;
}

/** Who keeps a container's output, by runtime. */
export const RUNTIME_NAMES: Readonly<Record<ServerContainer['runtime'], string>> = {
  docker: 'Docker',
  kubernetes: 'Kubernetes (the kubelet)',
  podman: 'Podman',
  container: 'its container runtime',
};

/** `Docker container 3f2a1b9c0d4e` */
export function containerName(c: ServerContainer): string {
  const runtime =
    c.runtime === 'kubernetes' ? 'Kubernetes ' : c.runtime === 'container' ? '' : `${RUNTIME_NAMES[c.runtime]} `;
  return `${runtime}container ${c.id.slice(0, 12)}`;
}
