// The words of the views' server pick for a merged log (webview/shared/serverPicker.ts shows
// them; the real VS Code test merged-servers-import.ui.ts picks a server in both views).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allServersLabel, serverPickLabel, viewServerNote } from '../../server/shared';

const SERVERS = [
  { server: 'pod/vllm-omni-0/vllm', requests: 6 },
  { server: 'pod/vllm-omni-1/vllm', requests: 1 },
];

test('the options: every request of the session, untagged ones included, then each server with its count', () => {
  assert.equal(allServersLabel(SERVERS, 0), 'All servers (7 requests)');
  assert.equal(allServersLabel(SERVERS, 2), 'All servers (9 requests)');
  assert.equal(serverPickLabel({ server: 'pod/vllm-omni-0/vllm', requests: 6 }), 'pod/vllm-omni-0/vllm (6 requests)');
  assert.equal(serverPickLabel({ server: 'web-1', requests: 1 }), 'web-1 (1 request)');
  assert.equal(serverPickLabel({ server: 'web-1', requests: 12_345 }), 'web-1 (12,345 requests)');
});

test("the note: what one server's numbers are, the command that reads them, the untagged requests left out", () => {
  assert.equal(
    viewServerNote('pod/vllm-omni-0/vllm', SERVERS, 0),
    'Numbers of server pod/vllm-omni-0/vllm only: its 6 requests, as `stage-lens analyze --server pod/vllm-omni-0/vllm` reads them.',
  );
  assert.equal(
    viewServerNote('pod/vllm-omni-1/vllm', SERVERS, 1),
    "Numbers of server pod/vllm-omni-1/vllm only: its 1 request, as `stage-lens analyze --server pod/vllm-omni-1/vllm` reads them. The 1 untagged request (lines with no server's tag) is left out.",
  );
  assert.equal(
    viewServerNote('pod/vllm-omni-0/vllm', SERVERS, 4),
    "Numbers of server pod/vllm-omni-0/vllm only: its 6 requests, as `stage-lens analyze --server pod/vllm-omni-0/vllm` reads them. The 4 untagged requests (lines with no server's tag) are left out.",
  );
  // A stern tag has a space, a name may hold a quote: the command quotes it as a shell takes it back.
  assert.equal(
    viewServerNote("vllm-0 o'brien", [{ server: "vllm-0 o'brien", requests: 2 }], 0),
    "Numbers of server vllm-0 o'brien only: its 2 requests, as `stage-lens analyze --server 'vllm-0 o'\\''brien'` reads them.",
  );
  // A server the session has no request of (a stale pick): none, said so.
  assert.equal(
    viewServerNote('pod/gone/vllm', SERVERS, 0),
    'Numbers of server pod/gone/vllm only: its 0 requests, as `stage-lens analyze --server pod/gone/vllm` reads them.',
  );
});
