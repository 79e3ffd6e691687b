// The Output channel's lines about a session: its start, each change of status with what it
// had read, each new error; nothing for an update that only counts more requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionLogLines } from '../../src/sessionLogLines';

const importing = {
  title: 'server.log · Dec 2 15:40',
  description: '/logs/server.log',
  kind: 'import' as const,
  status: 'running' as const,
  exit: null,
  lastError: null,
  requestCount: 0,
  problemCount: 0,
};

test('an import: begun, then imported with its counts; updates that only count requests log nothing', () => {
  assert.deepEqual(sessionLogLines(undefined, importing), [
    { level: 'info', text: 'session server.log · Dec 2 15:40: /logs/server.log (importing)' },
  ]);
  const reading = { ...importing, requestCount: 5_000 };
  assert.deepEqual(sessionLogLines(importing, reading), []);
  const done = { ...reading, status: 'exited' as const, requestCount: 10_000, problemCount: 1 };
  assert.deepEqual(sessionLogLines(reading, done), [
    { level: 'info', text: 'session server.log · Dec 2 15:40: imported, 10,000 requests, 1 input problem' },
  ]);
});

test('a launched server that crashes: the crash and its error at error level, each error once', () => {
  const launch = { ...importing, kind: 'launch' as const, title: 'Qwen3-TTS', description: 'vllm serve ...' };
  const crashed = {
    ...launch,
    status: 'crashed' as const,
    exit: { code: 1, signal: null },
    lastError: 'CUDA out of memory',
    requestCount: 1,
  };
  assert.deepEqual(sessionLogLines(launch, crashed), [
    { level: 'error', text: 'session Qwen3-TTS: crashed (exit code 1), 1 request' },
    { level: 'error', text: 'session Qwen3-TTS: CUDA out of memory' },
  ]);
  assert.deepEqual(sessionLogLines(crashed, { ...crashed, problemCount: 2 }), []);
});

test('a file name or error with line breaks stays one line in the log', () => {
  const hostile = { ...importing, title: 'evil\n[error] forged', description: '/logs/evil\nline', lastError: 'a\r\nb' };
  const [begun, error] = sessionLogLines(undefined, hostile);
  assert.equal(begun?.text, 'session evil␊[error] forged: /logs/evil␊line (importing)');
  assert.equal(error?.text, 'session evil␊[error] forged: a␍␊b');
});

test('an error while the source still runs (a scrape before the server listens) is a warning', () => {
  const launch = { ...importing, kind: 'launch' as const, title: 'demo', status: 'running' as const };
  assert.deepEqual(
    sessionLogLines(launch, { ...launch, lastError: 'Cannot scrape http://127.0.0.1:1/metrics: connection refused' }),
    [{ level: 'warn', text: 'session demo: Cannot scrape http://127.0.0.1:1/metrics: connection refused' }],
  );
});
