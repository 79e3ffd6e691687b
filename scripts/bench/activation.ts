// Activation benchmark ("light until used"): a language server (dist/server.js,
// a real child process over stdio) starting on a storage folder that holds three saved
// sessions of a ~200 MB log each, against the floor of the same server starting on an empty
// folder, alternated in the same run: the time from the initialize request to the
// answered session list, the server's CPU time for it (all threads; a busy machine
// stretches the wall time, not this), and the resident memory after it (VmRSS). The server
// has loaded and answered a first message before initialize, so the times are its own work,
// not Node's start-up (spawn to listed is printed apart). Then opening one saved session (the
// first request about it replays its bytes) against importing the same log into a fresh
// folder, alternated.
// Run alone (after npm run build): node --import tsx scripts/bench/activation.ts [MB] [--server path/to/server.js]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { SessionInfo } from '../../server/protocol';
import { generateBenchLogApart } from './generateLog';

const ROOT = resolve(__dirname, '..', '..');
const MB = 1024 * 1024;

export interface ActivationBenchOptions {
  /** Size of the log of each saved session; default 200 MB. */
  readonly sessionBytes?: number;
  readonly sessions?: number;
  /** Alternated rounds of floor / with sessions. */
  readonly rounds?: number;
  /** The language server to measure (default dist/server.js). */
  readonly server?: string;
  readonly log?: (line: string) => void;
}

interface Server {
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  /** Resolves with the process's exit. */
  readonly exited: Promise<void>;
}

function startServer(server: string): Server {
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  connection.listen();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, connection, exited };
}

async function stopServer(s: Server): Promise<void> {
  s.connection.dispose();
  s.child.kill('SIGKILL');
  await s.exited;
}

/** CPU time the process has used so far, all its threads (Linux /proc/<pid>/task/<tid>/schedstat, ns), in ms. */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function initialize(s: Server, storageDir: string): Promise<void> {
  await s.connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { storageDir },
  });
  await s.connection.sendNotification(InitializedNotification.type, {});
}

const list = (s: Server): Promise<SessionInfo[]> =>
  s.connection.sendRequest('stageLens/listSessions', {}) as Promise<SessionInfo[]>;

interface Activation {
  /** initialize request sent -> session list answered, the server already loaded and idle. */
  readonly listedMs: number;
  /** CPU time the server used meanwhile (a figure a busy machine does not inflate). */
  readonly listedCpuMs: number;
  readonly rssMB: number;
  readonly sessions: number;
}

/** Resolves once the server process reads its input (Node started, the bundle loaded): it answers anything, if only with an error. */
async function ready(s: Server): Promise<void> {
  await s.connection.sendRequest('stageLens/benchReady', {}).catch(() => undefined);
}

async function activation(server: string, storageDir: string, settleMs: number): Promise<Activation> {
  const s = startServer(server);
  // Node's start-up and the bundle's load are not the server's work for the sessions.
  await ready(s);
  await sleep(settleMs);
  const pid = s.child.pid as number;
  const cpu1 = cpuMs(pid);
  const t1 = performance.now();
  await initialize(s, storageDir);
  const listed = await list(s);
  const t2 = performance.now();
  const cpu2 = cpuMs(pid);
  // What the process keeps once it has answered (not a transient peak).
  await sleep(300);
  const rss = rssMB(s.child.pid as number);
  await stopServer(s);
  return { listedMs: t2 - t1, listedCpuMs: cpu2 - cpu1, rssMB: rss, sessions: listed.length };
}

/** Spawn to listed, without a pause: what a window waits for. */
async function coldActivation(server: string, storageDir: string): Promise<number> {
  const t0 = performance.now();
  const s = startServer(server);
  await initialize(s, storageDir);
  await list(s);
  const ms = performance.now() - t0;
  await stopServer(s);
  return ms;
}

/** Imports `log` through a fresh server into `storageDir`; ms until the session has exited. */
async function importLog(server: string, storageDir: string, log: string): Promise<Timed> {
  const s = startServer(server);
  await initialize(s, storageDir);
  await sleep(500);
  const cpu0 = cpuMs(s.child.pid as number);
  const t0 = performance.now();
  const info = (await s.connection.sendRequest('stageLens/import', { path: log })) as SessionInfo;
  let done: SessionInfo | undefined;
  for (;;) {
    done = (await list(s)).find((x) => x.id === info.id);
    if (done !== undefined && done.status !== 'running' && done.status !== 'starting') break;
    await sleep(20);
  }
  const ms = performance.now() - t0;
  const cpu = cpuMs(s.child.pid as number) - cpu0;
  const rss = rssMB(s.child.pid as number);
  await stopServer(s);
  if (done.status !== 'exited') throw new Error(`import ended ${done.status}: ${done.lastError}`);
  return { ms, cpuMs: cpu, requests: done.requestCount, rssMB: rss };
}

interface Timed {
  readonly ms: number;
  /** CPU time of the server process (all threads) meanwhile. */
  readonly cpuMs: number;
  readonly requests: number;
  readonly rssMB: number;
}

/** Opens a saved session in a fresh server: ms from the first request about it to its answer. */
async function openSaved(server: string, storageDir: string, id: string): Promise<Timed> {
  const s = startServer(server);
  await initialize(s, storageDir);
  await list(s);
  await sleep(500);
  const cpu0 = cpuMs(s.child.pid as number);
  const t0 = performance.now();
  const summary = (await s.connection.sendRequest('stageLens/summary', { sessionId: id })) as { requestCount: number };
  const ms = performance.now() - t0;
  const cpu = cpuMs(s.child.pid as number) - cpu0;
  const rss = rssMB(s.child.pid as number);
  await stopServer(s);
  return { ms, cpuMs: cpu, requests: summary.requestCount, rssMB: rss };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[], digits = 0): string =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

export async function runActivationBench(options: ActivationBenchOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const server = options.server ?? join(ROOT, 'dist', 'server.js');
  const sessions = options.sessions ?? 3;
  const rounds = options.rounds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-activation-'));
  try {
    const logFile = join(dir, 'server.log');
    const generated = generateBenchLogApart(logFile, options.sessionBytes ?? 200 * MB);
    log(
      `activation bench: ${sessions} saved sessions of a ${(generated.bytes / MB).toFixed(1)} MB log (${generated.requests.toLocaleString('en-US')} requests) each; server ${server}; load ${loadavg()[0]?.toFixed(1)}`,
    );
    const saved = join(dir, 'saved');
    const empty = join(dir, 'empty');
    // The saved sessions are made as a user makes them: Import Log... in a language server.
    const imports: number[] = [];
    for (let i = 0; i < sessions; i++) imports.push((await importLog(server, saved, logFile)).ms);
    log(`  ${sessions} imports to make them: ${imports.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);

    const settleMs = 500;
    const floor: Activation[] = [];
    const withSessions: Activation[] = [];
    for (let r = 0; r < rounds; r++) {
      floor.push(await activation(server, empty, settleMs));
      withSessions.push(await activation(server, saved, settleMs));
    }
    const listed = median(withSessions.map((a) => a.listedMs));
    const floorListed = median(floor.map((a) => a.listedMs));
    const rss = median(withSessions.map((a) => a.rssMB));
    const floorRss = median(floor.map((a) => a.rssMB));
    log(
      `  initialize + session list (${withSessions[0]?.sessions} sessions): median ${listed.toFixed(1)} ms (${range(
        withSessions.map((a) => a.listedMs),
        1,
      )}); floor, no sessions: ${floorListed.toFixed(1)} ms (${range(
        floor.map((a) => a.listedMs),
        1,
      )})  [target < 150 ms]`,
    );
    log(
      `    server CPU time for it: median ${median(withSessions.map((a) => a.listedCpuMs)).toFixed(1)} ms (${range(
        withSessions.map((a) => a.listedCpuMs),
        1,
      )}); floor ${median(floor.map((a) => a.listedCpuMs)).toFixed(1)} ms (${range(
        floor.map((a) => a.listedCpuMs),
        1,
      )})`,
    );
    log(
      `  resident memory after the list: median ${rss.toFixed(1)} MB (${range(
        withSessions.map((a) => a.rssMB),
        1,
      )}); floor ${floorRss.toFixed(1)} MB (${range(
        floor.map((a) => a.rssMB),
        1,
      )}); above the floor: ${(rss - floorRss).toFixed(1)} MB  [target < 60 MB above]`,
    );
    const cold: number[] = [];
    const coldFloor: number[] = [];
    for (let r = 0; r < rounds; r++) {
      coldFloor.push(await coldActivation(server, empty));
      cold.push(await coldActivation(server, saved));
    }
    log(
      `  spawn to session list (Node start-up and the bundle's load included): median ${median(cold).toFixed(0)} ms (${range(cold)}); floor ${median(coldFloor).toFixed(0)} ms (${range(coldFloor)})`,
    );

    const ids = (
      await (async () => {
        const s = startServer(server);
        await initialize(s, saved);
        const l = await list(s);
        await stopServer(s);
        return l;
      })()
    ).map((x) => x.id);
    const opens: Timed[] = [];
    const reimports: Timed[] = [];
    for (let r = 0; r < Math.min(3, rounds); r++) {
      const fresh = join(dir, `import-${r}`);
      reimports.push(await importLog(server, fresh, logFile));
      rmSync(fresh, { recursive: true, force: true });
      opens.push(await openSaved(server, saved, ids[r % ids.length]));
    }
    const mbps = (ms: number): string => (generated.bytes / MB / (ms / 1000)).toFixed(0);
    const line = (what: string, xs: Timed[]): string =>
      `  ${what}: median ${(median(xs.map((o) => o.ms)) / 1000).toFixed(2)} s (${range(
        xs.map((o) => o.ms / 1000),
        2,
      )}), ${mbps(median(xs.map((o) => o.ms)))} MB/s; ` +
      `server CPU ${(median(xs.map((o) => o.cpuMs)) / 1000).toFixed(2)} s (${range(
        xs.map((o) => o.cpuMs / 1000),
        2,
      )}); ${xs[0]?.requests.toLocaleString('en-US')} requests, ${median(xs.map((o) => o.rssMB)).toFixed(0)} MB resident after`;
    log(line('opening a saved session (first request about it: replay of its stored bytes)', opens));
    log(`${line('importing the same log (Import Log..., alternated)', reimports)}  [target: opening ≤ importing]`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const serverAt = args.indexOf('--server');
  const server = serverAt >= 0 ? resolve(args[serverAt + 1]) : undefined;
  const mb = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--server') ?? 200);
  void runActivationBench({ sessionBytes: mb * MB, ...(server === undefined ? {} : { server }) });
}
