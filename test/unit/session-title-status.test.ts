// A session named with its status (a deploy YAML hint's "Measured in …"): one pair of parentheses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { titleWithStatus } from '../../server/core/sessionStatusWords';

test('a session title with its status: the exit code inside the same parentheses', () => {
  assert.equal(
    titleWithStatus('launch: vllm serve', { kind: 'launch', status: 'exited', exit: { code: 0, signal: null } }),
    'launch: vllm serve (exited, exit code 0)',
  );
  assert.equal(
    titleWithStatus('attach: pid 42', { kind: 'attach', status: 'crashed', exit: { code: null, signal: 'SIGKILL' } }),
    'attach: pid 42 (crashed, signal SIGKILL)',
  );
  assert.equal(
    titleWithStatus('server.log', { kind: 'import', status: 'exited', exit: null }),
    'server.log (imported)',
  );
  assert.equal(titleWithStatus('launch: x', { kind: 'launch', status: 'running', exit: null }), 'launch: x (running)');
});
