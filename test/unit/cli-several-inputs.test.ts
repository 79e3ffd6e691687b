// Several files given to analyze or explain: read as one log, a log and its rotations oldest first
// (a shell lists `server.log*` newest first); stdin among them, or --follow, is refused with why;
// a file that cannot be read is named before anything is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { followOneMessage, inputsToRead, readOrderNote, unreadableFileProblem } from '../../server/cli/severalInputs';
import { oldestFirst } from '../../server/core/rotationOrder';

test('rotations oldest first: numbered by their number, dated by their date, the current log last', () => {
  assert.deepEqual(oldestFirst(['server.log', 'server.log.1', 'server.log.10.gz', 'server.log.2.gz']), [
    'server.log.10.gz',
    'server.log.2.gz',
    'server.log.1',
    'server.log',
  ]);
  assert.deepEqual(oldestFirst(['omni.log', 'omni.log-20261130.gz', 'omni.log-20261128', 'omni.log-2026112912']), [
    'omni.log-20261128',
    'omni.log-2026112912',
    'omni.log-20261130.gz',
    'omni.log',
  ]);
  // Names that are no rotations keep the order given.
  assert.deepEqual(oldestFirst(['b.log', 'a.log']), ['b.log', 'a.log']);
  assert.equal(
    readOrderNote(['server.log.2.gz', 'server.log.1', 'server.log']),
    'read as one log, oldest first: server.log.2.gz, server.log.1, server.log',
  );
});

test('stdin among several inputs, or --follow of several, is refused with what to do instead', () => {
  assert.equal(
    inputsToRead('analyze', ['-', 'b.log']),
    "'-' (stdin) is read alone, not with other inputs (got 2): give the files alone (they are read as one log, oldest first), or pipe them all in.",
  );
  assert.equal(
    followOneMessage(['server.log', 'server.log.1']),
    '--follow follows one file, got 2: the one log the server is writing (stage-lens analyze --follow server.log); a rotated log is done growing (without --follow, several files are read as one log).',
  );
});

test('the first file that cannot be read is named, before any is read', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-several-'));
  try {
    const log = path.join(dir, 'server.log');
    fs.writeFileSync(log, 'x\n');
    assert.equal(unreadableFileProblem([log]), null);
    assert.equal(
      unreadableFileProblem([path.join(dir, 'server.log.1'), log]),
      `cannot read ${path.join(dir, 'server.log.1')}: no such file`,
    );
    assert.equal(unreadableFileProblem([log, dir]), `cannot read ${dir}: is a directory`);
    // What the commands read: one input as given, several files oldest first and named together.
    const rotated = path.join(dir, 'server.log.1');
    fs.writeFileSync(rotated, 'y\n');
    assert.deepEqual(inputsToRead('analyze', [log]), { source: log, files: null });
    assert.deepEqual(inputsToRead('explain', [log, rotated]), { source: `${rotated} + ${log}`, files: [rotated, log] });
    assert.equal(
      inputsToRead('analyze', [log, path.join(dir, 'server.log.2.gz')]),
      `cannot read ${path.join(dir, 'server.log.2.gz')}: no such file`,
    );
    const url = inputsToRead('analyze', [log, 'http://127.0.0.1:8000/metrics']);
    assert.ok(typeof url === 'string' && /URL/.test(url), JSON.stringify(url));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
