// Whether a running server will print the DEBUG-only stats tables, decided from its
// command line, its environment (/proc/<pid>/environ) and a logging config file, as vLLM
// decides its level: a config file first, then --log-level, then VLLM_LOGGING_LEVEL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { outlookOfLoggingConfig, readEnviron, statsTablesOutlook } from '../../server/capture/statsTables';

const vllm = (
  env: Record<string, string> | null,
  args: string[] = ['Qwen/Qwen3-TTS', '--omni', '--log-stats'],
  cwd: string | null = null,
) => statsTablesOutlook({ args, env, cwd, simulator: false });

test('VLLM_LOGGING_LEVEL decides when nothing else does; unset is INFO', () => {
  assert.deepEqual(vllm({ VLLM_LOGGING_LEVEL: 'DEBUG' }), {
    tables: 'yes',
    reason: 'VLLM_LOGGING_LEVEL=DEBUG in its environment',
  });
  assert.equal(vllm({ VLLM_LOGGING_LEVEL: 'debug' }).tables, 'yes', 'vllm/envs.py upper-cases it');
  assert.deepEqual(vllm({ VLLM_LOGGING_LEVEL: 'INFO' }), {
    tables: 'no',
    reason: 'VLLM_LOGGING_LEVEL=INFO in its environment',
  });
  assert.deepEqual(vllm({ PATH: '/usr/bin' }), {
    tables: 'no',
    reason: 'VLLM_LOGGING_LEVEL is not set in its environment, so it logs at INFO',
  });
  assert.equal(vllm({ VLLM_LOGGING_LEVEL: 'DEBUG', VLLM_CONFIGURE_LOGGING: '0' }).tables, 'no');
  const unreadable = vllm(null);
  assert.equal(unreadable.tables, 'unknown');
  assert.match(unreadable.reason, /cannot read its environment/);
});

test('a --log-level flag (newer vLLM) wins over the environment', () => {
  assert.deepEqual(vllm({}, ['m', '--omni', '--log-level', 'DEBUG']), {
    tables: 'yes',
    reason: 'it runs with --log-level DEBUG',
  });
  assert.deepEqual(vllm({ VLLM_LOGGING_LEVEL: 'DEBUG' }, ['m', '--omni', '--log-level=INFO']), {
    tables: 'no',
    reason: 'it runs with --log-level INFO',
  });
  assert.equal(vllm({}, ['m', '--logging-config.log_level', 'DEBUG']).tables, 'yes');
  assert.equal(vllm({}, ['m', '--logging-config.log-level=debug']).tables, 'yes');
});

test('the simulator also takes --debug-tables', () => {
  assert.equal(statsTablesOutlook({ args: ['--debug-tables'], env: {}, cwd: null, simulator: true }).tables, 'yes');
  assert.equal(
    statsTablesOutlook({ args: ['--debug-tables'], env: {}, cwd: null, simulator: false }).tables,
    'no',
    'not a vLLM flag',
  );
});

test('a logging config: the stats logger chain up to vllm, and a handler that lets DEBUG through', () => {
  const handler = { vllm: { class: 'logging.StreamHandler', level: 'DEBUG' } };
  // Only the stats logger at DEBUG, the rest of vLLM at INFO: tables, nothing else at DEBUG.
  const statsOnly = {
    version: 1,
    handlers: handler,
    loggers: {
      vllm: { handlers: ['vllm'], level: 'INFO', propagate: false },
      'vllm_omni.metrics.stats': { level: 'DEBUG' },
    },
  };
  assert.equal(outlookOfLoggingConfig(statsOnly, 'x.json').tables, 'yes');
  // vLLM's own default with VLLM_LOGGING_LEVEL=INFO: logger and handler at INFO.
  const info = {
    version: 1,
    handlers: { vllm: { class: 'logging.StreamHandler', level: 'INFO' } },
    loggers: { vllm: { handlers: ['vllm'], level: 'INFO' } },
  };
  const no = outlookOfLoggingConfig(info, 'x.json');
  assert.equal(no.tables, 'no');
  assert.match(no.reason, /logger "vllm" to level INFO/);
  // The logger at DEBUG but its only handler at INFO: the records are built and dropped.
  const filtered = {
    version: 1,
    handlers: { vllm: { level: 'INFO' } },
    loggers: { vllm: { handlers: ['vllm'], level: 'DEBUG' } },
  };
  assert.match(outlookOfLoggingConfig(filtered, 'x.json').reason, /no handler on its way lets DEBUG records through/);
  // No logger entry at all: Python's root default, WARNING.
  assert.equal(outlookOfLoggingConfig({ version: 1 }, 'x.json').tables, 'no');
  assert.equal(outlookOfLoggingConfig([1, 2], 'x.json').tables, 'unknown');
  // Numeric levels and a non-propagating child without handlers.
  const numeric = { version: 1, handlers: { h: {} }, root: { level: 10, handlers: ['h'] } };
  assert.equal(outlookOfLoggingConfig(numeric, 'x.json').tables, 'yes');
  const cut = {
    version: 1,
    handlers: { h: {} },
    loggers: { 'vllm_omni.metrics.stats': { level: 'DEBUG', propagate: false } },
    root: { handlers: ['h'] },
  };
  assert.equal(outlookOfLoggingConfig(cut, 'x.json').tables, 'no');
});

test('a logging config file named by VLLM_LOGGING_CONFIG_PATH or --log-config-file, read safely', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-logcfg-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'logging.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      handlers: { vllm: { class: 'logging.StreamHandler' } },
      loggers: { vllm: { handlers: ['vllm'], level: 'INFO' }, 'vllm_omni.metrics.stats': { level: 'DEBUG' } },
    }),
  );
  assert.equal(
    vllm({ VLLM_LOGGING_CONFIG_PATH: file, VLLM_LOGGING_LEVEL: 'INFO' }).tables,
    'yes',
    'the file is authoritative over the level',
  );
  assert.equal(
    vllm({}, ['m', '--log-config-file', 'logging.json'], dir).tables,
    'yes',
    "relative to the server's working directory",
  );
  assert.equal(vllm({}, ['m', '--log-config-file', 'logging.json'], null).tables, 'unknown');
  fs.writeFileSync(path.join(dir, 'broken.json'), '{');
  assert.match(vllm({ VLLM_LOGGING_CONFIG_PATH: path.join(dir, 'broken.json') }).reason, /not JSON/);
  assert.match(vllm({ VLLM_LOGGING_CONFIG_PATH: path.join(dir, 'missing.json') }).reason, /cannot read/);
  // A FIFO is not waited on (a config file is a regular file, or it is not read).
  const fifo = path.join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  const began = Date.now();
  assert.equal(vllm({ VLLM_LOGGING_CONFIG_PATH: fifo }).tables, 'unknown');
  assert.ok(Date.now() - began < 1000);
  assert.equal(vllm({ VLLM_LOGGING_CONFIG_PATH: '/dev/zero' }).tables, 'unknown');
});

test('/proc/<pid>/environ of this very process is read back', () => {
  const env = readEnviron('/proc', process.pid);
  assert.ok(env !== null);
  // environ holds the environment the process started with.
  assert.equal(env['PATH'], process.env['PATH']);
  assert.equal(readEnviron('/proc', 0x7ffffff0), null);
});
