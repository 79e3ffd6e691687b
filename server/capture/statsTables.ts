// Whether a running server prints vLLM-Omni's per-request stats tables, decided before
// attaching from what /proc shows of it: its command line and its environment.
//
// Upstream logs every table ([Overall Summary], RequestE2EStats, StageRequestStats,
// TransferEdgeStats) with logger.debug, and builds them only when the stats logger
// (`vllm_omni.metrics.stats`, whose `vllm_omni` parent is re-parented to `vllm`) is enabled
// for DEBUG; at INFO a server prints one [OmniTiming] line per request. The level comes
// from, strongest first:
//   - a logging config file (`--log-config-file`, `--logging-config.pylogging_config_file`,
//     or VLLM_LOGGING_CONFIG_PATH): vLLM uses it instead of its own config, so the levels
//     of the loggers and handlers in it decide;
//   - the command line (`--log-level`, `--logging-config.log_level`) on vLLM builds that read it;
//   - VLLM_LOGGING_LEVEL (upper-cased by vllm/envs.py; INFO when unset).
// VLLM_CONFIGURE_LOGGING=0 leaves Python's defaults: warnings only, no tables.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StatsTablesOutlook } from '../protocol';
import { optionValue } from './argvOptions';

export { STATS_TABLES_FIX } from '../core/analysis/tablesMissing';

/** A logging config is a few KB; anything larger is not read. */
const MAX_CONFIG_BYTES = 1 << 20;

const LEVELS: Readonly<Record<string, number>> = {
  NOTSET: 0,
  DEBUG: 10,
  INFO: 20,
  WARN: 30,
  WARNING: 30,
  ERROR: 40,
  FATAL: 50,
  CRITICAL: 50,
};
const DEBUG = 10;

function levelOf(raw: unknown): number | null {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toUpperCase();
  if (/^\d+$/.test(text)) return Number(text);
  return LEVELS[text] ?? null;
}

/** Reads a regular file of at most MAX_CONFIG_BYTES without blocking on a FIFO or a device; null otherwise. */
function readSmallRegularFile(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_CONFIG_BYTES) return null;
    const buffer = Buffer.alloc(stats.size);
    const read = fs.readSync(fd, buffer, 0, stats.size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

type Entry = Record<string, unknown>;

function asEntry(value: unknown): Entry | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entry) : null;
}

/**
 * The outlook under a dictConfig: the stats logger's effective level, and whether some
 * handler on its way up lets DEBUG records through. The chain is
 * vllm_omni.metrics.stats -> vllm_omni.metrics -> vllm_omni -> vllm -> root.
 */
export function outlookOfLoggingConfig(config: unknown, where: string): StatsTablesOutlook {
  const root = asEntry(config);
  if (root === null) return { tables: 'unknown', reason: `the logging config ${where} is not a JSON object` };
  const loggers = asEntry(root['loggers']) ?? {};
  const handlers = asEntry(root['handlers']) ?? {};
  const chain = ['vllm_omni.metrics.stats', 'vllm_omni.metrics', 'vllm_omni', 'vllm'];
  const entries: { name: string; entry: Entry }[] = [];
  for (const name of chain) {
    const entry = asEntry(loggers[name]);
    if (entry !== null) entries.push({ name, entry });
  }
  const rootLogger = asEntry(root['root']);
  if (rootLogger !== null) entries.push({ name: 'root', entry: rootLogger });
  // Effective level: the first logger on the chain with a level other than NOTSET.
  let effective: { level: number; name: string } | null = null;
  for (const { name, entry } of entries) {
    const level = levelOf(entry['level']);
    if (level !== null && level !== 0) {
      effective = { level, name };
      break;
    }
  }
  const effectiveLevel = effective?.level ?? 30; // Python's root default: WARNING
  if (effectiveLevel > DEBUG) {
    return {
      tables: 'no',
      reason: `its logging config ${where} sets ${effective === null ? 'no level for the stats logger (WARNING applies)' : `logger "${effective.name}" to level ${String(effective.level === 20 ? 'INFO' : effective.level)}`}`,
    };
  }
  // Handlers reached: those of each logger up the chain until one does not propagate.
  let anyHandler = false;
  for (const { name, entry } of entries) {
    const names = Array.isArray(entry['handlers'])
      ? entry['handlers'].filter((h): h is string => typeof h === 'string')
      : [];
    for (const handlerName of names) {
      anyHandler = true;
      const handler = asEntry(handlers[handlerName]);
      const level = handler === null ? 0 : (levelOf(handler['level']) ?? 0);
      if (level <= DEBUG)
        return {
          tables: 'yes',
          reason: `its logging config ${where} enables DEBUG for the stats logger (logger "${effective?.name ?? name}", handler "${handlerName}")`,
        };
    }
    if (entry['propagate'] === false || entry['propagate'] === 0) break;
  }
  return {
    tables: 'no',
    reason: anyHandler
      ? `its logging config ${where} enables DEBUG for the stats logger, but no handler on its way lets DEBUG records through`
      : `its logging config ${where} gives the stats logger no handler`,
  };
}

/** The outlook of a logging config file (read only when it is a small regular file). */
function outlookOfConfigFile(file: string, cwd: string | null, where: string): StatsTablesOutlook {
  const resolved = path.isAbsolute(file) ? file : cwd !== null ? path.resolve(cwd, file) : null;
  if (resolved === null)
    return {
      tables: 'unknown',
      reason: `it uses the logging config ${file} (${where}), relative to a working directory Stage Lens cannot see`,
    };
  const text = readSmallRegularFile(resolved);
  if (text === null)
    return {
      tables: 'unknown',
      reason: `it uses the logging config ${resolved} (${where}), which Stage Lens cannot read`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { tables: 'unknown', reason: `it uses the logging config ${resolved} (${where}), which is not JSON` };
  }
  return outlookOfLoggingConfig(parsed, `${resolved} (${where})`);
}

/** `--name v`, `--name=v`, or the dashed/underscored spelling vLLM's argument parser also accepts. */
function flagValue(args: readonly string[], ...names: string[]): { name: string; value: string } | null {
  let found: { name: string; value: string } | null = null;
  for (const name of names) {
    for (const spelling of new Set([name, name.replace(/_/g, '-')])) {
      const value = optionValue(args, spelling);
      if (value !== null) found = { name: spelling, value };
    }
  }
  return found;
}

/**
 * Whether the process will print the stats tables. `env` is its environment (null when
 * /proc/<pid>/environ cannot be read: another user's process), `args` its arguments after
 * the serving command, `simulator` true for Stage Lens's simulator (which also takes
 * --debug-tables), `cwd` its working directory when known.
 */
export function statsTablesOutlook(input: {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>> | null;
  readonly cwd: string | null;
  readonly simulator: boolean;
}): StatsTablesOutlook {
  const { args, env } = input;
  if (input.simulator && args.includes('--debug-tables'))
    return { tables: 'yes', reason: 'it runs with --debug-tables' };
  const configFlag = flagValue(args, '--log-config-file', '--logging-config.pylogging_config_file');
  if (configFlag !== null) return outlookOfConfigFile(configFlag.value, input.cwd, configFlag.name);
  const configureLogging = env?.['VLLM_CONFIGURE_LOGGING'];
  const configPath = env?.['VLLM_LOGGING_CONFIG_PATH'];
  if (configPath !== undefined && configPath !== '')
    return outlookOfConfigFile(configPath, input.cwd, 'VLLM_LOGGING_CONFIG_PATH');
  const levelFlag = flagValue(args, '--log-level', '--logging-config.log_level');
  if (levelFlag !== null) {
    const level = levelFlag.value.trim().toUpperCase();
    return level === 'DEBUG'
      ? { tables: 'yes', reason: `it runs with ${levelFlag.name} ${levelFlag.value}` }
      : { tables: 'no', reason: `it runs with ${levelFlag.name} ${levelFlag.value}` };
  }
  if (env === null)
    return {
      tables: 'unknown',
      reason:
        "Stage Lens cannot read its environment (/proc/<pid>/environ; another user's process?), so its log level is unknown",
    };
  if (configureLogging !== undefined && configureLogging.trim() === '0')
    return { tables: 'no', reason: 'it runs with VLLM_CONFIGURE_LOGGING=0 (vLLM sets up no logging: warnings only)' };
  const level = env['VLLM_LOGGING_LEVEL'];
  if (level === undefined)
    return { tables: 'no', reason: 'VLLM_LOGGING_LEVEL is not set in its environment, so it logs at INFO' };
  return level.trim().toUpperCase() === 'DEBUG'
    ? { tables: 'yes', reason: `VLLM_LOGGING_LEVEL=${level} in its environment` }
    : { tables: 'no', reason: `VLLM_LOGGING_LEVEL=${level} in its environment` };
}

/** Parses /proc/<pid>/environ (NUL-separated NAME=value); null when unreadable. */
export function readEnviron(procRoot: string, pid: number): Record<string, string> | null {
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(procRoot, String(pid), 'environ'), 'utf8');
  } catch {
    return null;
  }
  const env: Record<string, string> = {};
  for (const entry of raw.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}
