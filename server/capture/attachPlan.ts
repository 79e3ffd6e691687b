// What "attach to a running server" can capture from a process found in /proc: its
// /metrics on the port it listens on, and its stdout/stderr when they are files. When its
// output goes somewhere we cannot read (a terminal, a pipe), say so in plain words and
// name the two routes that work. The session layer turns the plan into sources.
import * as path from 'node:path';
import type { ServerContainer, ServingProcess } from '../protocol';
import { containerName, RUNTIME_NAMES } from '../core/containerName';
import { describeArgv } from '../core/shellWords';
import { STATS_TABLES_FIX } from './statsTables';
import {
  FD_CLOSED,
  FD_DELETED_FILE,
  FD_DEV_NULL,
  FD_PIPE,
  FD_SOCKET,
  FD_TERMINAL,
  FD_UNKNOWN,
  classifyServingCommand,
  isTailableTarget,
  optionValue,
} from './servingProcesses';

export interface AttachPlan {
  /** Loopback URL of the server's Prometheus endpoint; null when its port is unknown. */
  readonly metricsUrl: string | null;
  /** Files to tail for the stats log (stdout, stderr, --log-file), each once. */
  readonly logFiles: string[];
  /** For the user: what will be captured and, if the log cannot be, why and what to do. */
  readonly explanation: string;
}

/** Why an output target cannot be tailed, as the end of "its output goes to …". */
function unreadableTarget(target: string): string {
  switch (target) {
    case FD_TERMINAL:
      return 'a terminal, which Stage Lens cannot read';
    case FD_PIPE:
      return 'a pipe (another program reads it), which Stage Lens cannot read';
    case FD_SOCKET:
      return 'a socket (the systemd journal, or a parent program such as a Node.js launcher reads it), which Stage Lens cannot read';
    case FD_DEV_NULL:
      return '/dev/null, so it is discarded';
    case FD_DELETED_FILE:
      return 'a file that has been deleted, which Stage Lens cannot open any more';
    case FD_CLOSED:
      return 'nowhere (the descriptor is closed)';
    case FD_UNKNOWN:
      return 'a place Stage Lens may not look at (the process belongs to another user, or is protected)';
    default:
      return `${target}, which Stage Lens cannot read`;
  }
}

/** The command that copies a container's output to a file Stage Lens can follow; null for a runtime not told. */
function containerLogCommand(c: ServerContainer): string | null {
  const short = c.id.slice(0, 12);
  if (c.runtime === 'docker') return `docker logs -f ${short} > server.log 2>&1`;
  if (c.runtime === 'podman') return `podman logs -f ${short} > server.log 2>&1`;
  if (c.runtime !== 'kubernetes') return null;
  // The kubelet's file is named <pod>_<namespace>_<container>-<id>.log.
  const named = c.logFile === null ? null : /^([^_]+)_([^_]+)_(.+)-[0-9a-f]{64}\.log$/.exec(path.basename(c.logFile));
  return named === null
    ? `crictl logs -f ${short} > server.log 2>&1`
    : `kubectl logs -f -n ${named[2]} ${named[1]} -c ${named[3]} > server.log`;
}

export function attachPlan(proc: ServingProcess): AttachPlan {
  const metricsUrl = proc.port !== null ? `http://127.0.0.1:${proc.port}/metrics` : null;
  const command = classifyServingCommand(proc.argv);
  const args = command !== null ? proc.argv.slice(command.argsFrom) : proc.argv;

  const logFiles: string[] = [];
  const addFile = (file: string): void => {
    if (!logFiles.includes(file)) logFiles.push(file);
  };
  if (isTailableTarget(proc.stdout)) addFile(proc.stdout);
  if (isTailableTarget(proc.stderr)) addFile(proc.stderr);
  // vLLM-Omni can also write its log to a file of its own; only usable when absolute,
  // because the server's working directory is not part of what we were given.
  const logFileArg = optionValue(args, '--log-file');
  if (logFileArg !== null && path.isAbsolute(logFileArg)) addFile(logFileArg);
  // In a container its output goes to a pipe the runtime reads; the runtime keeps it in a file.
  const container = proc.container ?? null;
  const containerLog = logFiles.length === 0 && container !== null && container.logReadable ? container.logFile : null;
  if (containerLog !== null) addFile(containerLog);

  const parts: string[] = [];
  parts.push(
    metricsUrl !== null
      ? // Shown after "Stage Lens: " in the editor's messages: it does not name Stage Lens again.
        `Scraping ${metricsUrl}.`
      : 'Its port is not known, so its /metrics cannot be scraped.',
  );
  const metricsRoute =
    metricsUrl !== null ? ' or use the metrics route (per-stage histograms, no per-request tables)' : '';
  const copyCommand = container === null ? null : containerLogCommand(container);
  if (containerLog !== null && container !== null) {
    parts.push(
      `It runs in ${containerName(container)}, whose output ${RUNTIME_NAMES[container.runtime]} keeps in ${containerLog}: it tails that file for the per-request stats log.`,
    );
  } else if (logFiles.length > 0) {
    parts.push(`It tails ${logFiles.join(' and ')} for the per-request stats log.`);
  } else if (container !== null && copyCommand !== null) {
    const kept =
      container.logFile === null
        ? `${RUNTIME_NAMES[container.runtime]} keeps no log file of it that Stage Lens found (another logging driver)`
        : `${RUNTIME_NAMES[container.runtime]} may keep it in ${container.logFile}, which this user may not read`;
    parts.push(
      `Its log cannot be captured: it runs in ${containerName(container)}, its output goes to ${RUNTIME_NAMES[container.runtime]} and ${kept}; copy it to a file with \`${copyCommand}\` and attach to that file${metricsRoute}.`,
    );
  } else {
    const where =
      proc.stdout === proc.stderr
        ? `its output goes to ${unreadableTarget(proc.stdout)}`
        : `its stdout goes to ${unreadableTarget(proc.stdout)} and its stderr to ${unreadableTarget(proc.stderr)}`;
    const restart = `${describeArgv(proc.argv)} 2>&1 | tee server.log`;
    parts.push(
      `Its log cannot be captured: ${where}; attach to a log file (restart the server with \`${restart}\`)${metricsRoute}.`,
    );
  }
  if (logFileArg !== null && !path.isAbsolute(logFileArg)) {
    parts.push(
      `It also writes --log-file ${logFileArg}, relative to its working directory; tail that file to read it.`,
    );
  }
  if (command?.kind === 'vllm' && !args.includes('--log-stats')) {
    parts.push(
      'It was started without --log-stats, so it prints no per-request stats; restart it with --log-stats to get them.',
    );
  } else if (proc.statsTables.tables === 'no') {
    parts.push(
      `It prints no stats tables (${proc.statsTables.reason}): only [OmniTiming] lines, so Stage Lens shows per-stage wall time, end to end and the /metrics histograms, but no queued/prefill/decode/TTFT split; for the split, ${STATS_TABLES_FIX}.`,
    );
  } else if (proc.statsTables.tables === 'unknown') {
    parts.push(
      `Whether it prints the stats tables is unknown (${proc.statsTables.reason}); they appear only at DEBUG (VLLM_LOGGING_LEVEL=DEBUG).`,
    );
  }
  return { metricsUrl, logFiles, explanation: parts.join(' ') };
}
