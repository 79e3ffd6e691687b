// Serving-process discovery over fake /proc trees (real files and symlinks in a temp dir),
// the attach plan built from what it finds, and one pass over the real /proc with real
// child processes whose command lines look like vLLM-Omni servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  classifyServingCommand,
  describeFdTarget,
  listServingProcesses,
  optionValue,
} from '../../server/capture/servingProcesses';
import { attachPlan } from '../../server/capture/attachPlan';
import { containerOfCgroup } from '../../server/capture/containerLog';
import type { ServingProcess } from '../../server/protocol';

interface FakeProc {
  readonly argv: readonly string[] | string;
  readonly cwd?: string;
  /** Symlink targets for fd 1 and 2; `file:` makes a plain file instead (readlink fails). */
  readonly fd1?: string;
  readonly fd2?: string;
  readonly ppid?: number;
  /** /proc/<pid>/cgroup: the container it runs in. */
  readonly cgroup?: string;
}

function fakeProcRoot(
  t: { after(fn: () => void): void },
  procs: Record<number, FakeProc>,
): { root: string; base: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-proc-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'proc');
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(root, 'self'));
  fs.writeFileSync(path.join(root, 'uptime'), '1.0 1.0\n');
  for (const [pid, proc] of Object.entries(procs)) {
    const dir = path.join(root, pid);
    fs.mkdirSync(path.join(dir, 'fd'), { recursive: true });
    const cmdline = typeof proc.argv === 'string' ? proc.argv : proc.argv.map((a) => `${a}\0`).join('');
    fs.writeFileSync(path.join(dir, 'cmdline'), cmdline);
    fs.writeFileSync(path.join(dir, 'stat'), `${pid} (python3) S ${proc.ppid ?? 1} ${pid} ${pid} 0 -1 4194560\n`);
    if (proc.cwd !== undefined) fs.symlinkSync(proc.cwd, path.join(dir, 'cwd'));
    if (proc.cgroup !== undefined) fs.writeFileSync(path.join(dir, 'cgroup'), proc.cgroup);
    for (const [fd, target] of [
      ['1', proc.fd1],
      ['2', proc.fd2],
    ] as const) {
      if (target === undefined) continue;
      if (target.startsWith('file:')) fs.writeFileSync(path.join(dir, 'fd', fd), '');
      else fs.symlinkSync(target, path.join(dir, 'fd', fd));
    }
  }
  return { root, base };
}

test('finds vllm serve --omni, vllm-omni serve, python -m vllm…, and the simulator', (t) => {
  const tts = [
    '/usr/bin/python3',
    '/opt/venv/bin/vllm',
    'serve',
    'Qwen/Qwen3-TTS-12Hz-1.7B-Base',
    '--omni',
    '--deploy-config',
    'configs/tts.yaml',
    '--port',
    '8091',
    '--log-stats',
  ];
  const { root, base } = fakeProcRoot(t, {
    100: { argv: tts, cwd: '/srv/tts', fd1: '/srv/tts/server.log', fd2: '/srv/tts/server.log' },
    // A forked worker inherits the command line: listed once, under the parent.
    107: { argv: tts, cwd: '/srv/tts', fd1: '/srv/tts/server.log', fd2: '/srv/tts/server.log', ppid: 100 },
    101: {
      argv: ['vllm-omni', 'serve', 'Qwen/Qwen3-Omni-30B-A3B-Instruct', '--deploy-config=/etc/omni/omni.yaml'],
      cwd: '/home/u',
      fd1: '/dev/pts/3',
      fd2: 'pipe:[5550]',
    },
    102: { argv: ['vllm', 'serve', 'meta-llama/Llama-3.1-8B', '--port', '9000'], fd1: '/tmp/plain.log' },
    103: {
      argv: ['python', '-m', 'vllm.entrypoints.openai.api_server', '--model', 'x', '--omni', '--port', '8001'],
      fd1: 'socket:[123]',
      fd2: '/dev/null',
    },
    104: {
      argv: [
        'node',
        '--import',
        'tsx',
        'server/simulate/cli-entry.ts',
        '--scenario',
        'qwen3-tts',
        '--port',
        '8555',
        '--deploy-config',
        'test/fixtures/deploy/qwen3_tts.yaml',
      ],
      cwd: '/work/main',
      fd1: '/dev/tty1',
      fd2: '/dev/tty1',
    },
    105: {
      argv: ['node', '/usr/lib/node_modules/stage-lens/dist/cli.js', 'simulate', '--port=8600'],
      fd1: '/tmp/sim.log (deleted)',
      fd2: 'anon_inode:[eventfd]',
    },
    106: { argv: ['/usr/local/bin/stage-lens', 'simulate', '--scenario', 'glm-image'], fd1: 'file:', fd2: 'file:' },
    108: { argv: '' }, // kernel thread
    109: { argv: 'vllm serve Qwen/Qwen3-TTS --omni --port 8100' }, // rewrote its title
    110: { argv: ['grep', 'vllm', 'serve'] },
    111: { argv: ['vllm', 'serve', 'm', '--omni', '--port', 'abc'] },
  });
  const found = new Map(listServingProcesses(root).map((p) => [p.pid, p]));
  assert.deepEqual([...found.keys()], [100, 101, 103, 104, 105, 106, 109, 111]);

  assert.deepEqual(found.get(100), {
    pid: 100,
    argv: tts,
    deployConfig: '/srv/tts/configs/tts.yaml',
    port: 8091,
    stdout: '/srv/tts/server.log',
    stderr: '/srv/tts/server.log',
    statsTables: {
      tables: 'unknown',
      reason:
        "Stage Lens cannot read its environment (/proc/<pid>/environ; another user's process?), so its log level is unknown",
    },
  });
  const omni = found.get(101);
  assert.equal(omni?.deployConfig, '/etc/omni/omni.yaml');
  assert.equal(omni?.port, 8000, 'vllm default port');
  assert.equal(omni?.stdout, 'terminal');
  assert.equal(omni?.stderr, 'pipe');
  assert.deepEqual(
    [found.get(103)?.port, found.get(103)?.stdout, found.get(103)?.stderr, found.get(103)?.deployConfig],
    [8001, 'socket', '/dev/null', null],
  );
  assert.deepEqual(
    [found.get(104)?.port, found.get(104)?.deployConfig, found.get(104)?.stdout],
    [8555, '/work/main/test/fixtures/deploy/qwen3_tts.yaml', 'terminal'],
  );
  assert.deepEqual(
    [found.get(105)?.port, found.get(105)?.stdout, found.get(105)?.stderr],
    [8600, 'deleted file', 'unknown'],
  );
  assert.deepEqual(
    [found.get(106)?.port, found.get(106)?.stdout, found.get(106)?.stderr],
    [8000, 'unknown', 'unknown'],
  );
  assert.deepEqual([found.get(109)?.port, found.get(109)?.stdout], [8100, 'closed']);
  assert.equal(found.get(111)?.port, null, 'an unparsable port is unknown, not a guess');
  assert.ok(base.length > 0);
});

test('a missing or unreadable proc root gives an empty list', () => {
  assert.deepEqual(listServingProcesses(path.join(os.tmpdir(), 'stage-lens-no-proc-here')), []);
});

test('a relative deploy config without a readable cwd is kept as given', (t) => {
  const { root } = fakeProcRoot(t, { 200: { argv: ['vllm', 'serve', 'm', '--omni', '--deploy-config', 'x.yaml'] } });
  assert.equal(listServingProcesses(root)[0]?.deployConfig, 'x.yaml');
});

test('command and option parsing', () => {
  assert.deepEqual(classifyServingCommand(['vllm', 'serve', 'm', '--omni']), { kind: 'vllm', argsFrom: 2 });
  assert.equal(classifyServingCommand(['vllm', 'serve', 'm']), null, 'plain vLLM is not an omni server');
  assert.deepEqual(classifyServingCommand(['python', '-m', 'vllm_omni.entrypoints.cli.main', 'serve', 'm']), {
    kind: 'vllm',
    argsFrom: 4,
  });
  assert.deepEqual(classifyServingCommand(['node', 'dist/cli.js', 'simulate']), { kind: 'simulator', argsFrom: 3 });
  assert.equal(classifyServingCommand(['node', 'dist/cli.js', 'analyze', 'x.log']), null);
  assert.equal(optionValue(['--port', '1', '--port=2'], '--port'), '2');
  assert.equal(optionValue(['--port'], '--port'), null);
  assert.equal(optionValue(['--portal', '3'], '--port'), null);
  assert.equal(describeFdTarget('/dev/pts/12'), 'terminal');
  assert.equal(describeFdTarget('/dev/shm/serve.log'), '/dev/shm/serve.log');
  assert.equal(describeFdTarget(null), 'unknown');
});

function proc(over: Partial<ServingProcess>): ServingProcess {
  return {
    pid: 1,
    argv: ['vllm', 'serve', 'Qwen/Qwen3-TTS', '--omni', '--log-stats'],
    deployConfig: null,
    port: 8000,
    stdout: 'terminal',
    stderr: 'terminal',
    statsTables: { tables: 'yes', reason: 'VLLM_LOGGING_LEVEL=DEBUG in its environment' },
    ...over,
  };
}

test('attach plan: files are tailed, the port is scraped', () => {
  const plan = attachPlan(proc({ port: 8091, stdout: '/srv/out.log', stderr: '/srv/err.log' }));
  assert.equal(plan.metricsUrl, 'http://127.0.0.1:8091/metrics');
  assert.deepEqual(plan.logFiles, ['/srv/out.log', '/srv/err.log']);
  assert.match(plan.explanation, /tails \/srv\/out\.log and \/srv\/err\.log/);
  const same = attachPlan(proc({ stdout: '/srv/server.log', stderr: '/srv/server.log' }));
  assert.deepEqual(same.logFiles, ['/srv/server.log']);
  const mixed = attachPlan(proc({ stdout: 'terminal', stderr: '/srv/err.log' }));
  assert.deepEqual(mixed.logFiles, ['/srv/err.log'], 'vLLM logs to stderr: a file there is enough');
});

test('attach plan: a terminal or a pipe is explained, with the log-file and metrics routes', () => {
  const terminal = attachPlan(proc({}));
  assert.deepEqual(terminal.logFiles, []);
  assert.equal(terminal.metricsUrl, 'http://127.0.0.1:8000/metrics');
  // The editor shows it after "Stage Lens: ": it does not start with the name again.
  assert.match(terminal.explanation, /^Scraping http:\/\/127\.0\.0\.1:8000\/metrics\. Its log cannot be captured: /);
  assert.match(
    terminal.explanation,
    /its output goes to a terminal, which Stage Lens cannot read; attach to a log file \(restart the server with `vllm serve Qwen\/Qwen3-TTS --omni --log-stats 2>&1 \| tee server\.log`\) or use the metrics route/,
  );
  const pipe = attachPlan(proc({ stdout: 'pipe', stderr: 'pipe' }));
  assert.match(pipe.explanation, /goes to a pipe/);
  const split = attachPlan(proc({ stdout: '/dev/null', stderr: 'socket' }));
  assert.match(split.explanation, /stdout goes to \/dev\/null, so it is discarded and its stderr to a socket/);
  const noPort = attachPlan(proc({ port: null }));
  assert.equal(noPort.metricsUrl, null);
  assert.doesNotMatch(noPort.explanation, /metrics route/);
});

test('attach plan: --log-file and a missing --log-stats are mentioned', () => {
  const withLogFile = attachPlan(
    proc({ argv: ['vllm', 'serve', 'm', '--omni', '--log-stats', '--log-file', '/var/log/omni.log'] }),
  );
  assert.deepEqual(withLogFile.logFiles, ['/var/log/omni.log']);
  const relative = attachPlan(proc({ argv: ['vllm', 'serve', 'm', '--omni', '--log-stats', '--log-file=omni.log'] }));
  assert.match(relative.explanation, /--log-file omni\.log, relative to its working directory/);
  const noStats = attachPlan(
    proc({ argv: ['vllm', 'serve', 'm', '--omni'], stdout: '/srv/a.log', stderr: '/srv/a.log' }),
  );
  assert.match(noStats.explanation, /without --log-stats/);
  const sim = attachPlan(proc({ argv: ['stage-lens', 'simulate'] }));
  assert.doesNotMatch(sim.explanation, /--log-stats/);
});

// ------------------------------------------------------------ servers in containers

const ID = 'a3f9c2e1b0d4'.padEnd(64, '7');
const OTHER = 'b'.repeat(64);

test("a container is told by its process's cgroup path, with its runtime", () => {
  const cases: [string, ReturnType<typeof containerOfCgroup>][] = [
    [`0::/system.slice/docker-${ID}.scope\n`, { runtime: 'docker', id: ID }],
    [`12:pids:/docker/${ID}\n11:memory:/docker/${ID}\n0::/\n`, { runtime: 'docker', id: ID }],
    [
      `0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1d2c_8f.slice/cri-containerd-${ID}.scope\n`,
      { runtime: 'kubernetes', id: ID },
    ],
    [`0::/kubepods/besteffort/pod1d2c-8f/${ID}\n`, { runtime: 'kubernetes', id: ID }],
    [`0::/machine.slice/libpod-${ID}.scope/container\n`, { runtime: 'podman', id: ID }],
    [`0::/system.slice/crio-${ID}.scope\n`, { runtime: 'container', id: ID }],
    // A pod's sandbox id before the container's: the last id is the process's container.
    [`0::/kubepods/pod1/${OTHER}/${ID}\n`, { runtime: 'kubernetes', id: ID }],
    ['0::/user.slice/user-1000.slice/session-3.scope\n', null],
    ['4:memory:/process_api/c036e5e0d5800cf8d20d2fb8bd3f0125\n0::/\n', null],
    ['', null],
  ];
  for (const [cgroup, want] of cases) assert.deepEqual(containerOfCgroup(cgroup), want, cgroup);
});

test("a server in a container: the runtime's log file is found and tailed, where its output goes to a pipe", (t) => {
  const serve = ['vllm', 'serve', 'Qwen/Qwen3-TTS', '--omni', '--log-stats', '--port', '8091'];
  const { root, base } = fakeProcRoot(t, {
    300: { argv: serve, fd1: 'pipe:[71]', fd2: 'pipe:[71]', cgroup: `0::/system.slice/docker-${ID}.scope\n` },
    301: {
      argv: serve,
      fd1: 'pipe:[72]',
      fd2: 'pipe:[72]',
      cgroup: `0::/kubepods/burstable/pod1d2c/${ID.replace(/^a/, 'c')}\n`,
    },
    // A Docker container whose logging driver keeps no json-file log.
    302: { argv: serve, fd1: 'pipe:[73]', fd2: 'pipe:[73]', cgroup: `0::/docker/${OTHER}\n` },
    // In a container but writing to a file of its own: that file is tailed, as outside one.
    303: { argv: serve, fd1: '/srv/server.log', fd2: '/srv/server.log', cgroup: `0::/docker/${ID}\n` },
  });
  const roots = {
    docker: path.join(base, 'docker'),
    kubernetesLogs: path.join(base, 'log', 'containers'),
    podman: path.join(base, 'containers', 'storage'),
  };
  const dockerLog = path.join(roots.docker, 'containers', ID, `${ID}-json.log`);
  fs.mkdirSync(path.dirname(dockerLog), { recursive: true });
  fs.writeFileSync(dockerLog, '{"log":"INFO 12-01 10:00:00 [api_server.py:1] started\\n","stream":"stderr"}\n');
  const kubeId = ID.replace(/^a/, 'c');
  const kubeLog = path.join(roots.kubernetesLogs, `tts-7d9f_serving_omni-${kubeId}.log`);
  fs.mkdirSync(roots.kubernetesLogs, { recursive: true });
  fs.writeFileSync(kubeLog, '');

  const found = new Map(listServingProcesses(root, roots).map((p) => [p.pid, p]));
  assert.deepEqual(found.get(300)?.container, { runtime: 'docker', id: ID, logFile: dockerLog, logReadable: true });
  assert.deepEqual(found.get(301)?.container, {
    runtime: 'kubernetes',
    id: kubeId,
    logFile: kubeLog,
    logReadable: true,
  });
  assert.deepEqual(found.get(302)?.container, { runtime: 'docker', id: OTHER, logFile: null, logReadable: false });

  const docker = attachPlan(found.get(300) as ServingProcess);
  assert.deepEqual(docker.logFiles, [dockerLog]);
  const said = `Scraping http://127.0.0.1:8091/metrics. It runs in Docker container a3f9c2e1b0d4, whose output Docker keeps in ${dockerLog}: it tails that file for the per-request stats log.`;
  assert.equal(docker.explanation.slice(0, said.length), said);
  assert.deepEqual(attachPlan(found.get(301) as ServingProcess).logFiles, [kubeLog]);
  const noFile = attachPlan(found.get(302) as ServingProcess);
  assert.deepEqual(noFile.logFiles, []);
  assert.match(
    noFile.explanation,
    /Its log cannot be captured: it runs in Docker container bbbbbbbbbbbb, its output goes to Docker and Docker keeps no log file of it that Stage Lens found \(another logging driver\); copy it to a file with `docker logs -f bbbbbbbbbbbb > server\.log 2>&1` and attach to that file or use the metrics route/,
  );
  const ownFile = attachPlan(found.get(303) as ServingProcess);
  assert.deepEqual(ownFile.logFiles, ['/srv/server.log']);
  assert.doesNotMatch(ownFile.explanation, /container/);
});

test("attach plan: a container's log this user may not read is said, with the command that copies it", () => {
  const unreadable = (runtime: 'docker' | 'kubernetes' | 'podman' | 'container', logFile: string | null) =>
    attachPlan(proc({ stdout: 'pipe', stderr: 'pipe', container: { runtime, id: ID, logFile, logReadable: false } }));
  const docker = unreadable('docker', `/var/lib/docker/containers/${ID}/${ID}-json.log`);
  assert.deepEqual(docker.logFiles, []);
  assert.match(
    docker.explanation,
    /it runs in Docker container a3f9c2e1b0d4, its output goes to Docker and Docker may keep it in \/var\/lib\/docker\/containers\/a3f9\w+\/a3f9\w+-json\.log, which this user may not read; copy it to a file with `docker logs -f a3f9c2e1b0d4 > server\.log 2>&1`/,
  );
  assert.match(
    unreadable('kubernetes', `/var/log/containers/tts-7d9f_serving_omni-${ID}.log`).explanation,
    /it runs in Kubernetes container a3f9c2e1b0d4, its output goes to Kubernetes \(the kubelet\) and .*copy it to a file with `kubectl logs -f -n serving tts-7d9f -c omni > server\.log`/,
  );
  assert.match(unreadable('kubernetes', null).explanation, /`crictl logs -f a3f9c2e1b0d4 > server\.log 2>&1`/);
  assert.match(unreadable('podman', null).explanation, /`podman logs -f a3f9c2e1b0d4 > server\.log 2>&1`/);
  // A runtime not told: the restart with tee, as outside a container.
  assert.match(unreadable('container', null).explanation, /2>&1 \| tee server\.log/);
});

// ------------------------------------------------------------ the real /proc

function waitForExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));
}

function startFakeServer(
  t: { after(fn: () => Promise<void>): void },
  cwd: string,
  stdio: ['ignore', number | 'pipe', number | 'pipe'],
  env?: NodeJS.ProcessEnv,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      'setInterval(() => {}, 1000)',
      'vllm',
      'serve',
      'Qwen/Qwen3-TTS',
      '--omni',
      '--deploy-config',
      'x.yaml',
      '--port',
      '8123',
      '--log-stats',
    ],
    { cwd, stdio, ...(env === undefined ? {} : { env }) },
  );
  t.after(async () => {
    child.kill('SIGKILL');
    await waitForExit(child);
  });
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

const hasProc = fs.existsSync('/proc/self/cmdline');

test('finds a real process in /proc: port, deploy config, stdout file', { skip: !hasProc && 'no /proc' }, async (t) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const logPath = path.join(dir, 'server.log');
  const fd = fs.openSync(logPath, 'a');
  t.after(() => fs.closeSync(fd));
  const child = await startFakeServer(t, dir, ['ignore', fd, fd]);
  const found = listServingProcesses().find((p) => p.pid === child.pid);
  assert.ok(found, 'the child is listed');
  assert.equal(found.port, 8123);
  assert.equal(found.deployConfig, path.join(dir, 'x.yaml'));
  assert.equal(found.stdout, logPath);
  assert.equal(found.stderr, logPath);
  assert.equal(found.argv[found.argv.length - 1], '--log-stats');
  const plan = attachPlan(found);
  assert.deepEqual(plan, {
    metricsUrl: 'http://127.0.0.1:8123/metrics',
    logFiles: [logPath],
    explanation: plan.explanation,
  });
});

test(
  'a real process: its environment (/proc/<pid>/environ) says whether its stats tables will appear',
  { skip: !hasProc && 'no /proc' },
  async (t) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-attach-env-')));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const base = { ...process.env };
    delete base['VLLM_LOGGING_LEVEL'];
    const atDebug = await startFakeServer(t, dir, ['ignore', 'pipe', 'pipe'], { ...base, VLLM_LOGGING_LEVEL: 'DEBUG' });
    const atInfo = await startFakeServer(t, dir, ['ignore', 'pipe', 'pipe'], base);
    const found = new Map(listServingProcesses().map((p) => [p.pid, p]));
    assert.deepEqual(found.get(atDebug.pid!)?.statsTables, {
      tables: 'yes',
      reason: 'VLLM_LOGGING_LEVEL=DEBUG in its environment',
    });
    const info = found.get(atInfo.pid!);
    assert.deepEqual(info?.statsTables, {
      tables: 'no',
      reason: 'VLLM_LOGGING_LEVEL is not set in its environment, so it logs at INFO',
    });
    // Said in the attach plan too, with what will be shown and the fix.
    assert.match(
      attachPlan(info!).explanation,
      /It prints no stats tables \(VLLM_LOGGING_LEVEL is not set in its environment, so it logs at INFO\): only \[OmniTiming\] lines.*restart the server with VLLM_LOGGING_LEVEL=DEBUG/,
    );
  },
);

test(
  'a real process in a shell pipeline (`… | cat`) is reported as a pipe',
  { skip: !hasProc && 'no /proc' },
  async (t) => {
    // A true anonymous pipe, as `vllm serve … | tee` makes. The shell is only this test's
    // way to build one; the sources themselves never use a shell.
    const marker = `stage-lens-pipe-${process.pid}-${Date.now()}.yaml`;
    const shell = spawn(
      '/bin/sh',
      [
        '-c',
        '"$@" | cat > /dev/null',
        'sh',
        process.execPath,
        '-e',
        'setInterval(() => {}, 1000)',
        'vllm',
        'serve',
        'm',
        '--omni',
        '--deploy-config',
        marker,
      ],
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    t.after(async () => {
      try {
        process.kill(-(shell.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
      await waitForExit(shell);
    });
    let found: ServingProcess | undefined;
    for (let i = 0; i < 250 && found === undefined; i++) {
      // The shell's own argv carries the words too; the server is the node process.
      found = listServingProcesses().find(
        (p) => p.deployConfig?.endsWith(marker) === true && p.argv[0] === process.execPath,
      );
      if (found === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(found, 'the piped server is listed');
    assert.equal(found.stdout, 'pipe');
    assert.notEqual(found.pid, shell.pid);
    const plan = attachPlan(found);
    assert.deepEqual(plan.logFiles, []);
    assert.match(
      plan.explanation,
      /its stdout goes to a pipe \(another program reads it\), which Stage Lens cannot read/,
    );
    assert.match(plan.explanation, /tee server\.log/);
  },
);

test(
  'a real process spawned by Node with piped stdio: libuv gives it a socket pair',
  { skip: !hasProc && 'no /proc' },
  async (t) => {
    const child = await startFakeServer(t, os.tmpdir(), ['ignore', 'pipe', 'pipe']);
    const found = listServingProcesses().find((p) => p.pid === child.pid);
    assert.ok(found, 'the child is listed');
    assert.equal(found.stdout, 'socket');
    assert.equal(found.stderr, 'socket');
    const plan = attachPlan(found);
    assert.deepEqual(plan.logFiles, []);
    assert.match(plan.explanation, /goes to a socket/);
    assert.ok(!listServingProcesses().some((p) => p.pid === process.pid), 'the test runner itself is not a server');
  },
);

test(
  'a named pipe (mkfifo) given as stdout is a pipe, not a file to tail',
  { skip: !hasProc && 'no /proc' },
  async (t) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-fifo-')));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const fifo = path.join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    // Open the read end first without blocking, then the write end for the child.
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    t.after(() => fs.closeSync(reader));
    const writer = fs.openSync(fifo, 'w');
    t.after(() => fs.closeSync(writer));
    const child = await startFakeServer(t, dir, ['ignore', writer, writer]);
    const found = listServingProcesses().find((p) => p.pid === child.pid);
    assert.equal(found?.stdout, 'pipe');
  },
);
