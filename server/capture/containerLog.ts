// A server running in a container writes its output to a pipe its runtime reads, which Stage
// Lens cannot tail; the runtime keeps that output in a file of its own: Docker's json-file driver
// in /var/lib/docker/containers/<id>/<id>-json.log (JSON lines), the kubelet in
// /var/log/containers/<pod>_<namespace>_<container>-<id>.log (CRI lines), Podman's k8s-file
// driver in its storage's overlay-containers/<id>/userdata/ctr.log. The container is told by the
// process's cgroup path (/proc/<pid>/cgroup), which ends in its 64-hex id. The log reader reads
// each of those shapes (server/core/log/jsonLinesInput.ts, prefix.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerContainer } from '../protocol';

/** Where the runtimes keep containers' output; injectable so tests can build them from real files. */
export interface ContainerRoots {
  readonly docker: string;
  readonly kubernetesLogs: string;
  readonly podman: string;
}

export const DEFAULT_CONTAINER_ROOTS: ContainerRoots = {
  docker: '/var/lib/docker',
  kubernetesLogs: '/var/log/containers',
  podman: '/var/lib/containers/storage',
};

const CONTAINER_ID = /[0-9a-f]{64}/g;

/** The runtime and id of the container a cgroup file's paths name, or null (not in a container). */
export function containerOfCgroup(cgroup: string): Pick<ServerContainer, 'runtime' | 'id'> | null {
  for (const line of cgroup.split('\n')) {
    const cgroupPath = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
    const ids = cgroupPath.match(CONTAINER_ID);
    const id = ids?.[ids.length - 1];
    if (id === undefined) continue;
    const runtime = cgroupPath.includes('kubepods')
      ? 'kubernetes'
      : cgroupPath.includes('docker')
        ? 'docker'
        : cgroupPath.includes('libpod')
          ? 'podman'
          : 'container';
    return { runtime, id };
  }
  return null;
}

/** Whether `file` exists: readable, there but not ours to read, or not there (null). */
function access(file: string): 'readable' | 'unreadable' | null {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile() ? 'readable' : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'unreadable' : null;
  }
}

/** The kubelet's log of container `id`: the file of /var/log/containers whose name ends in `-<id>.log`. */
function kubernetesLog(roots: ContainerRoots, id: string): string | null {
  try {
    const name = fs.readdirSync(roots.kubernetesLogs).find((n) => n.endsWith(`-${id}.log`));
    return name === undefined ? null : path.join(roots.kubernetesLogs, name);
  } catch {
    return null;
  }
}

/** Where the container's runtime keeps its output (each runtime's place, for a runtime not told). */
function candidates(roots: ContainerRoots, container: Pick<ServerContainer, 'runtime' | 'id'>): string[] {
  const { runtime, id } = container;
  const docker = path.join(roots.docker, 'containers', id, `${id}-json.log`);
  const podman = path.join(roots.podman, 'overlay-containers', id, 'userdata', 'ctr.log');
  const kubernetes = runtime === 'kubernetes' || runtime === 'container' ? kubernetesLog(roots, id) : null;
  if (runtime === 'docker') return [docker];
  if (runtime === 'podman') return [podman];
  if (runtime === 'kubernetes') return kubernetes === null ? [] : [kubernetes];
  return [docker, ...(kubernetes === null ? [] : [kubernetes]), podman];
}

/** The container process `pid` runs in, with where its runtime keeps its output; null when it runs in none. */
export function containerOfProcess(procRoot: string, pid: number, roots: ContainerRoots): ServerContainer | null {
  let cgroup: string;
  try {
    cgroup = fs.readFileSync(path.join(procRoot, String(pid), 'cgroup'), 'utf8');
  } catch {
    return null;
  }
  const container = containerOfCgroup(cgroup);
  if (container === null) return null;
  let unreadable: string | null = null;
  for (const file of candidates(roots, container)) {
    const found = access(file);
    if (found === 'readable') return { ...container, logFile: file, logReadable: true };
    if (found === 'unreadable') unreadable ??= file;
  }
  return { ...container, logFile: unreadable, logReadable: false };
}
