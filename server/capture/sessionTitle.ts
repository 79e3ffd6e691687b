// How a session is named wherever a person picks or reads one (views, quick picks, the status
// bar, export file names): by what was served, with which deploy file, and when —
// "Qwen3-TTS-12Hz-1.7B-CustomVoice · qwen3_tts.yaml · Dec 1 14:02" — rather than by its raw
// command line, which stays the description. An imported log is named by its file and its log's
// own span, never the import time (server/core/sessionName.ts, which Compare uses too).
// Computed by the server from the session's metadata, so every client says the same.
import * as path from 'node:path';
import type { SessionInfo } from '../protocol';
import { importedLogTitle } from '../core/sessionName';
import { simulatedTopology } from '../simulate/options';
import type { SessionMeta } from './sessionFiles';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Dec 1 14:02" in the server's local time (no locale data: the same on every machine). */
export function startTimeLabel(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** Value of `--name value` / `--name=value` in an argument vector. */
function option(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === name) return argv[i + 1];
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
  }
  return undefined;
}

/** What a launched command serves: `vllm serve <model>`, `--model <m>`, or the simulator's model (marked as the demo). */
function launchedModel(argv: readonly string[], cwd: string): string | null {
  const serve = argv.indexOf('serve');
  const positional = serve >= 0 ? argv[serve + 1] : undefined;
  if (positional !== undefined && !positional.startsWith('-')) return shortModel(positional);
  const simulate = argv.indexOf('simulate');
  if (simulate >= 0) return simulatedModel(argv.slice(simulate + 1), cwd);
  const model = option(argv, '--model');
  return model === undefined ? null : shortModel(model);
}

/** The simulator's run by its arguments, once per launch: its title is read often, its deploy config once. */
const simulatedRuns = new Map<string, string>();

/**
 * The model and pipeline the simulator runs with `args` in `cwd`, as the simulator itself decides
 * them (a deploy config's pipeline comes from its files' names or its stage count).
 */
function simulatedModel(args: readonly string[], cwd: string): string {
  const key = `${cwd}\0${args.join('\0')}`;
  const known = simulatedRuns.get(key);
  if (known !== undefined) return known;
  const topology = simulatedTopology(withDeployConfigIn(args, cwd));
  const named = topology === null ? 'demo simulator' : `${shortModel(topology.model)} (demo, ${topology.scenario})`;
  if (simulatedRuns.size >= 64) simulatedRuns.clear();
  simulatedRuns.set(key, named);
  return named;
}

/** `args` with a relative `--deploy-config` resolved where the simulator runs. */
function withDeployConfigIn(args: readonly string[], cwd: string): string[] {
  return args.map((a, i) => {
    if (args[i - 1] === '--deploy-config') return path.resolve(cwd, a);
    if (a.startsWith('--deploy-config='))
      return `--deploy-config=${path.resolve(cwd, a.slice('--deploy-config='.length))}`;
    return a;
  });
}

/** The model without its organisation ("Qwen/Qwen3-TTS-..." -> "Qwen3-TTS-..."); a local path by its folder name. */
function shortModel(model: string): string {
  // Trailing slashes trimmed by a loop: /\/+$/ backtracks quadratically on a run of slashes.
  let end = model.length;
  while (end > 0 && model.charCodeAt(end - 1) === 0x2f) end--;
  return path.basename(model.slice(0, end)) || model;
}

function what(meta: SessionMeta): string {
  const info = meta.info;
  switch (info.kind) {
    case 'launch': {
      const argv = meta.launch?.argv ?? info.description.split(' ');
      return launchedModel(argv, meta.launch?.cwd ?? '/') ?? path.basename(argv[0] ?? 'server');
    }
    case 'tail':
      return `log ${path.basename(meta.tail?.path ?? info.description)}`;
    case 'import':
      return importedLogTitle({
        path: meta.import?.path ?? info.description,
        deployConfig: deployFile(meta),
        ordinal: info.importOrdinal,
        earlierFiles: info.earlierFiles,
        logSpan: info.logSpan,
      });
    case 'scrape': {
      const url = meta.scrape?.url ?? info.description;
      try {
        return `/metrics of ${new URL(url).host}`;
      } catch {
        return url;
      }
    }
    case 'attach':
      return info.description;
    case 'prometheus':
      return `Prometheus ${info.description}`;
  }
}

function deployFile(meta: SessionMeta): string | null {
  const file =
    meta.info.deployConfig ?? (meta.launch === undefined ? undefined : option(meta.launch.argv, '--deploy-config'));
  return file === undefined || file === null || file === '' ? null : path.basename(file);
}

export function sessionTitle(meta: SessionMeta): string {
  // An import's name is whole: the time it was imported says nothing of the run.
  if (meta.info.kind === 'import') return what(meta);
  return [what(meta), deployFile(meta), startTimeLabel(meta.info.startedAt)]
    .filter((p): p is string => p !== null && p !== '')
    .join(' · ');
}

/** `info` titled from it and its session's capture parameters (metadata saved before titles existed has none). */
export function withTitle(
  params: Omit<SessionMeta, 'info'>,
  info: Omit<SessionInfo, 'title'> & { readonly title?: string },
): SessionInfo {
  return { ...info, title: sessionTitle({ ...params, info: { ...info, title: '' } }) };
}
