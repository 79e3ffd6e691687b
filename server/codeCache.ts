// V8's code cache for the bundles a process loads at start: the CLI's command
// (dist/cli-<command>.js, ~300 KB) and the language server (dist/server-main.js, ~1.4 MB).
// Without it a fresh process compiles the bundle, then each function again as it first runs,
// on every start (a sixth of `analyze`'s start-up on a small log). The cache is what V8 makes
// of the bundle when the process ends (so it holds the functions that ran), kept per user in
// $XDG_CACHE_HOME/stage-lens/code-cache (default ~/.cache), and read only from a directory
// that the user owns and nobody else may write to. Its name carries the bundle's size and
// modification time and the Node version; V8 ignores a cache that does not fit its source,
// version or flags (it is then written again). A CLI run that stopped before reading an input
// (`analyze --help`) leaves a partial cache (`….partial.bin`, ./codeCacheRun.ts), which the
// next run that reads one replaces: else the first run a user makes would fix what every later
// run compiles. STAGE_LENS_CODE_CACHE=0 turns it off.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Where the cache files go, or null when there is no private place for them. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env['STAGE_LENS_CODE_CACHE'] === '0') return null;
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg !== undefined && xdg.startsWith('/') ? xdg : join(homedir(), '.cache');
  const dir = join(base, 'stage-lens', 'code-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return isPrivate(statSync(dir)) ? dir : null;
  } catch {
    return null;
  }
}

/** Owned by this user and writable by nobody else: a cache someone else could write is code they could run. */
function isPrivate(stats: Stats): boolean {
  const uid = typeof process.getuid === 'function' ? process.getuid() : stats.uid;
  return stats.uid === uid && (stats.mode & 0o022) === 0;
}

interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  require(id: string): unknown;
}

type ModuleStatics = typeof Module & {
  _extensions: Record<string, (module: NodeModule, filename: string) => void>;
  _nodeModulePaths(dir: string): string[];
};

/**
 * Runs `load` (a `require` of bundles in `bundleDir`) with those bundles compiled from the
 * code cache where one fits; after the process's work, at exit, writes the cache of each
 * bundle that had none, a stale one, or a partial one that this run outdid. `fullRun`, asked
 * at exit: whether this run did its main work (else its cache is kept as partial).
 * Any failure falls back to Node's own loading.
 */
export function withCodeCache<T>(bundleDir: string, load: () => T, fullRun: () => boolean = () => true): T {
  const dir = codeCacheDir();
  const statics = Module as ModuleStatics;
  const original = statics._extensions['.js'];
  if (dir === null || original === undefined) return load();
  statics._extensions['.js'] = (module, filename) => {
    if (dirname(filename) !== bundleDir) return original(module, filename);
    let compiled: ReturnType<typeof compileCached>;
    try {
      compiled = compileCached(dir, filename);
    } catch {
      return original(module, filename);
    }
    process.once('exit', () => compiled.saveIfOutdone(fullRun()));
    compiled.run(module);
  };
  try {
    return load();
  } finally {
    statics._extensions['.js'] = original;
  }
}

function compileCached(
  dir: string,
  filename: string,
): { run(module: NodeModule): void; saveIfOutdone(fullRun: boolean): void } {
  const source = readFileSync(filename, 'utf8');
  const stats = statSync(filename);
  // The bundle's identity in the name: a rebuilt or upgraded bundle gets a cache of its own.
  const bundle = basename(filename, '.js');
  const stem = join(dir, `${bundle}-${stats.size}-${Math.trunc(stats.mtimeMs)}-${process.version}-${process.arch}`);
  const fullFile = `${stem}.bin`;
  const partialFile = `${stem}.partial.bin`;
  let cached = readPrivate(fullFile);
  const cachedFull = cached !== undefined;
  cached ??= readPrivate(partialFile);
  const script = new Script(Module.wrap(source), { filename, cachedData: cached });
  const stale = cached === undefined || script.cachedDataRejected === true;
  return {
    run(module) {
      const statics = Module as ModuleStatics;
      module.filename = filename;
      module.paths = statics._nodeModulePaths(dirname(filename));
      const wrapper = script.runInThisContext() as (
        exports: unknown,
        require: (id: string) => unknown,
        module: NodeModule,
        filename: string,
        dirname: string,
      ) => void;
      wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
    },
    saveIfOutdone(fullRun) {
      if (!stale && (cachedFull || !fullRun)) return;
      const cacheFile = fullRun ? fullFile : partialFile;
      // Written whole under another name, then renamed: a reader never sees half a cache.
      const writing = `${cacheFile}.${process.pid}`;
      try {
        const fd = openSync(writing, 'w', 0o600);
        try {
          writeSync(fd, script.createCachedData());
        } finally {
          closeSync(fd);
        }
        renameSync(writing, cacheFile);
      } catch {
        // A cache that cannot be written (a full disk) costs the next run its compile time, and
        // leaves no half-written file behind.
        removeQuietly(writing);
        return;
      }
      // The caches of this bundle's earlier builds, a partial one this run outdid, and what a run
      // that was killed while writing left, are of no further use.
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names) {
        const file = join(dir, name);
        if (file === cacheFile) continue;
        const writer = writerOf(bundle, name);
        if (isCacheOf(bundle, name) || (writer !== null && writer !== process.pid && !isRunning(writer)))
          removeQuietly(file);
      }
    },
  };
}

/** The cache file's bytes, if it exists and is the user's own (see isPrivate). */
function readPrivate(file: string): Buffer | undefined {
  try {
    return isPrivate(statSync(file)) ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** `<bundle>-<size>-<mtime>-...bin.<pid>`: the process that was writing this cache file of the bundle; null for another name. */
function writerOf(bundle: string, name: string): number | null {
  const writing = /\.bin\.(\d+)$/.exec(name);
  return writing === null || !isCacheOf(bundle, name.slice(0, writing.index + 4)) ? null : Number(writing[1]);
}

/** Whether process `pid` runs (EPERM: it does, as another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove: nothing is lost either way.
  }
}

/** `<bundle>-<size>-<mtime>-...bin`: a cache file of this bundle (not of one whose name extends it). */
function isCacheOf(bundle: string, name: string): boolean {
  return name.startsWith(`${bundle}-`) && /^\d/.test(name.slice(bundle.length + 1)) && name.endsWith('.bin');
}
