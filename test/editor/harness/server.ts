// Starts the VS Code server (code-server's lib/vscode/out/server-main.js, NOT code-server's own
// wrapper, which rejects --enable-smoke-test-driver) on a free loopback port, in its own process
// group (setsid), and stops the whole group again.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killGroupNow, onCleanup, recordForCleanup, removeDirNow, stopGroup } from './cleanup';
import { outputDir, type VSCodeInstall } from './config';
import { stopExtensionHosts } from './processTree';

export interface VSCodeServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly base: string;
  /** e.g. 127.0.0.1:41234: the remote authority the workbench uses in vscode-remote:// URIs */
  readonly authority: string;
  readonly logFile: string;
  /** A path on this machine as the workbench sees it (the server is its "remote"). */
  remoteUri(absPath: string): string;
  /** The workbench URL for a folder, with an optional test payload (extensionDevelopmentPath, ...). */
  workbenchUrl(folder: string, payload?: ReadonlyArray<readonly [string, string]>): string;
  logTail(lines: number): string;
  /** The last lines of Stage Lens's own log in the newest extension host (printed when a UI test fails). */
  extensionLogTail(lines: number): string;
  /** Stops the extension hosts of closed windows (and what they launched); the server stays up. */
  stopExtensionHosts(): Promise<number>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  install: VSCodeInstall;
  /** Used for the log file name: test-output/editor/<name>-server.log */
  name: string;
  /** Extra environment for the server; the extension host inherits it. */
  env?: Record<string, string>;
  /** A .vsix installed into this server's extensions folder first, as a user does (`--install-extension`). */
  installVsix?: string;
}

/** User settings that keep the workbench quiet and deterministic. */
const userSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

/**
 * bash -c WATCHDOG name HARNESS_PID CMD...: runs CMD in the background and waits for it; if the
 * harness process disappears first, stops the whole process group (TERM, then KILL). It ignores
 * TERM itself (set after CMD started, so CMD keeps the default), so a group-wide SIGTERM from
 * the harness stops the server and the watchdog then exits with it.
 */
const watchdog = `
harness=$1; shift
"$@" &
srv=$!
trap '' TERM
while kill -0 "$srv" 2>/dev/null; do
  if ! kill -0 "$harness" 2>/dev/null; then
    kill -TERM -- -$$ 2>/dev/null; sleep 3; kill -KILL -- -$$ 2>/dev/null
  fi
  sleep 0.5
done
wait "$srv"
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function cleanEnv(extra: Record<string, string>, stateDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Variables of a VS Code this harness may itself be running in must not reach the server.
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') continue;
    env[k] = v;
  }
  return {
    ...env,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    ...extra,
  };
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** <logs>/<start time>/exthost<N>/stage-lens.stage-lens/Stage Lens.log with the highest N, if any. */
function newestExtensionLog(logsDir: string): string | null {
  const list = (dir: string): string[] => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  };
  const run = list(logsDir).sort().pop();
  if (run === undefined) return null;
  const hosts = list(path.join(logsDir, run))
    .filter((d) => /^exthost\d+$/.test(d))
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  for (const host of hosts.reverse()) {
    const file = path.join(logsDir, run, host, 'stage-lens.stage-lens', 'Stage Lens.log');
    if (fs.existsSync(file)) return file;
  }
  return null;
}

async function startOnce(opts: ServerOptions, port: number): Promise<VSCodeServer | 'port-in-use'> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-vscode-'));
  recordForCleanup('dir', stateDir);
  const removeState = onCleanup(() => removeDirNow(stateDir));
  fs.mkdirSync(path.join(stateDir, 'user', 'User'), { recursive: true });
  fs.writeFileSync(path.join(stateDir, 'user', 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
  fs.mkdirSync(outputDir, { recursive: true });
  const logFile = path.join(outputDir, `${opts.name}-server.log`);
  const dataArgs = [
    '--server-data-dir',
    path.join(stateDir, 'server'),
    '--user-data-dir',
    path.join(stateDir, 'user'),
    '--extensions-dir',
    path.join(stateDir, 'extensions'),
  ];
  if (opts.installVsix !== undefined) {
    const installed = spawnSync(
      opts.install.node,
      [opts.install.serverMain, ...dataArgs, '--install-extension', opts.installVsix],
      {
        encoding: 'utf8',
        env: cleanEnv(opts.env ?? {}, stateDir),
        timeout: 120_000,
      },
    );
    const said = `${installed.stdout ?? ''}${installed.stderr ?? ''}`.trim();
    fs.writeFileSync(path.join(outputDir, `${opts.name}-install.log`), said + '\n');
    if (installed.status !== 0 || !/successfully installed/i.test(said)) {
      removeState();
      throw new Error(
        `--install-extension ${opts.installVsix} failed (exit ${String(installed.status ?? installed.signal)}): ${said.split('\n').slice(-5).join(' | ')}`,
      );
    }
  }
  const logFd = fs.openSync(logFile, 'w');
  const args = [
    opts.install.node,
    opts.install.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    // Without it a built product ignores ?payload= (extensionDevelopmentPath / extensionTestsPath).
    '--enable-smoke-test-driver',
    '--telemetry-level',
    'off',
    ...dataArgs,
  ];
  // `setsid` puts the server into a new process group (pgid = the pid of `setsid`'s child), so
  // the extension host, file watcher and pty host it forks are all stopped with one kill(-pgid).
  // The group leader is a small bash watchdog that also stops the group should this harness
  // process die without cleaning up (SIGKILL).
  const child = spawn('setsid', ['bash', '-c', watchdog, 'stage-lens-vscode-watchdog', String(process.pid), ...args], {
    stdio: ['ignore', logFd, logFd],
    env: cleanEnv(opts.env ?? {}, stateDir),
  });
  fs.closeSync(logFd);
  const pgid = child.pid;
  if (pgid === undefined) {
    removeState();
    throw new Error('could not start setsid/node for the VS Code server');
  }
  recordForCleanup('pgid', pgid);
  const killNow = onCleanup(() => killGroupNow(pgid));
  let exited: number | string | null = null;
  child.on('exit', (code, signal) => {
    exited = code ?? signal ?? 'exit';
  });

  const stop = async (): Promise<void> => {
    await stopGroup(pgid);
    killNow();
    removeState();
  };

  const authority = `127.0.0.1:${port}`;
  const base = `http://${authority}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) {
      await stop();
      const log = tail(logFile, 30);
      if (/EADDRINUSE/.test(log)) return 'port-in-use';
      throw new Error(`VS Code server exited (${String(exited)}) before it was ready; ${logFile}:\n${log}`);
    }
    try {
      const res = await fetch(`${base}/version`, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`VS Code server did not answer on ${base} within 60 s; ${logFile}:\n${tail(logFile, 30)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const remoteUri = (absPath: string): string => `vscode-remote://${authority}${absPath}`;
  return {
    base,
    authority,
    logFile,
    remoteUri,
    workbenchUrl(folder, payload) {
      let url = `${base}/?folder=${encodeURIComponent(folder)}`;
      if (payload && payload.length > 0) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return url;
    },
    logTail: (lines) => tail(logFile, lines),
    extensionLogTail: (lines) => {
      const file = newestExtensionLog(path.join(stateDir, 'user', 'logs'));
      return file === null ? '' : tail(file, lines);
    },
    stopExtensionHosts: () => stopExtensionHosts(pgid),
    stop,
  };
}

export async function startServer(opts: ServerOptions): Promise<VSCodeServer> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await startOnce(opts, await freePort());
    if (result !== 'port-in-use') return result;
  }
  throw new Error('VS Code server: no free loopback port after 3 attempts');
}
