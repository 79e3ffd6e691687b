// What Export Session says once the file is written: the request count with the noun in the
// right number, where to open a trace, and the reveal action named as on each platform.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportedMessage, OPEN_ACTION, revealActionLabel } from '../../src/exportMessage';

test('the message says "1 request", "0 requests", "1,024 requests"', () => {
  assert.equal(
    exportedMessage({ path: '/tmp/run.json', requestCount: 1 }, 'json'),
    'Stage Lens exported 1 request to /tmp/run.json.',
  );
  assert.equal(
    exportedMessage({ path: '/tmp/run.csv', requestCount: 0 }, 'csv'),
    'Stage Lens exported 0 requests to /tmp/run.csv.',
  );
  assert.equal(
    exportedMessage({ path: '/tmp/run.json', requestCount: 1024 }, 'json'),
    'Stage Lens exported 1,024 requests to /tmp/run.json.',
  );
});

test('only a trace points to Perfetto', () => {
  assert.equal(
    exportedMessage({ path: '/tmp/run.trace.json', requestCount: 12 }, 'trace'),
    'Stage Lens exported 12 requests to /tmp/run.trace.json. Open it in Perfetto (ui.perfetto.dev).',
  );
  assert.doesNotMatch(exportedMessage({ path: '/tmp/run.csv', requestCount: 12 }, 'csv'), /Perfetto/);
});

test('the actions: Open, and the reveal named as VS Code names it on each platform', () => {
  assert.equal(OPEN_ACTION, 'Open');
  assert.equal(revealActionLabel('darwin'), 'Reveal in Finder');
  assert.equal(revealActionLabel('win32'), 'Reveal in File Explorer');
  assert.equal(revealActionLabel('linux'), 'Open Containing Folder');
});
