// The effective deploy config of a file: its `base_config` chain resolved (relative to
// each file's folder, several levels, cycles cut) and merged the way vLLM-Omni merges it.
import * as path from 'node:path';
import { entryOf, isMap, isScalar, type ConfigEntry, type ConfigMap } from './configTree';
import { mergeOverlay } from './mergeConfig';
import { isUnread, type UnreadFile } from './fileCache';
import type { ParsedDeployFile } from './parsedFile';

export type OverlayProblemKind =
  | 'base-config-missing'
  | 'base-config-unreadable'
  | 'base-config-cycle'
  | 'base-config-not-a-path'
  | 'base-config-not-a-map';

export interface OverlayProblem {
  readonly kind: OverlayProblemKind;
  readonly message: string;
  /** The `base_config` entry that leads to the problem, in whichever file of the chain. */
  readonly entry: ConfigEntry;
  /** The file the entry points to, resolved. */
  readonly target: string | null;
}

export interface EffectiveDeployConfig {
  /** The merged top-level map. Each value's location names the file it came from. */
  readonly root: ConfigMap;
  /** The file itself first, then its base, the base's base... as far as they resolved. */
  readonly chain: readonly ParsedDeployFile[];
  readonly problems: readonly OverlayProblem[];
}

/** Loads a parsed deploy file by absolute path; undefined when it does not exist, or why it was not read. */
export type DeployFileLoader = (path: string) => ParsedDeployFile | UnreadFile | undefined;

/** A chain deeper than this is surely a mistake (and would only be slow). */
const MAX_CHAIN = 32;

export function resolveEffectiveConfig(file: ParsedDeployFile, load: DeployFileLoader): EffectiveDeployConfig {
  const chain: ParsedDeployFile[] = [file];
  const problems: OverlayProblem[] = [];
  const seen = new Set([path.resolve(file.path)]);
  let current = file;
  while (chain.length < MAX_CHAIN) {
    const entry = entryOf(current.root, 'base_config');
    if (!entry) break;
    const next = followBase(current, entry, seen, load, problems);
    if (!next) break;
    chain.push(next);
    seen.add(path.resolve(next.path));
    current = next;
  }
  let root = asRoot(chain[chain.length - 1]);
  for (let i = chain.length - 2; i >= 0; i--) root = mergeOverlay(root, asRoot(chain[i]));
  return { root, chain, problems };
}

function followBase(
  file: ParsedDeployFile,
  entry: ConfigEntry,
  seen: Set<string>,
  load: DeployFileLoader,
  problems: OverlayProblem[],
): ParsedDeployFile | null {
  const value = entry.value;
  if (!isScalar(value) || typeof value.value !== 'string' || value.value.trim() === '') {
    problems.push({
      kind: 'base-config-not-a-path',
      message: "`base_config` must be a file path (relative to this file's folder).",
      entry,
      target: null,
    });
    return null;
  }
  const target = path.resolve(path.dirname(file.path), value.value);
  if (seen.has(target)) {
    problems.push({
      kind: 'base-config-cycle',
      message: `\`base_config\` cycle: ${path.basename(target)} is already in this chain of overlays; vLLM-Omni would recurse without end.`,
      entry,
      target,
    });
    return null;
  }
  const base = load(target);
  if (!base) {
    problems.push({ kind: 'base-config-missing', message: `\`base_config\` file not found: ${target}`, entry, target });
    return null;
  }
  if (isUnread(base)) {
    problems.push({
      kind: 'base-config-unreadable',
      message: `\`base_config\` ${target} was not read: it ${base.reason}.`,
      entry,
      target,
    });
    return null;
  }
  if (!isMap(base.root)) {
    problems.push({
      kind: 'base-config-not-a-map',
      message: `\`base_config\` ${path.basename(target)} is not a YAML map of deploy settings.`,
      entry,
      target,
    });
    return null;
  }
  return base;
}

function asRoot(file: ParsedDeployFile): ConfigMap {
  if (isMap(file.root)) return file.root;
  return { kind: 'map', entries: new Map(), location: file.lines.location(0, 0) };
}
