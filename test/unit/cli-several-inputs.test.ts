// Several files given to analyze or explain, which read one input: the message orders a log and
// its rotations oldest first (a shell lists `server.log*` newest first) and gives the pipe that
// reads them as one log, with the command's other arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsBesides, followOneMessage, severalInputsMessage } from '../../server/cli/severalInputs';
import { oldestFirst } from '../../server/core/rotationOrder';

const EXPECTED = "one input file (or '-' for stdin)";

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
});

test('the message: the pipe oldest first, gzip -dcf when a file is gzip, the other arguments kept, names quoted', () => {
  assert.equal(
    severalInputsMessage('analyze', ['server.log', 'server.log.1', 'server.log.2.gz'], ['--format', 'json'], EXPECTED),
    "expected one input file (or '-' for stdin), got 3. To read a log and its rotations as one log, pipe them in, oldest first: " +
      'gzip -dcf server.log.2.gz server.log.1 server.log | stage-lens analyze - --format json',
  );
  assert.equal(
    severalInputsMessage('explain', ['run 1.log', '-x.log'], ['--target', 'e2e'], 'one input'),
    "expected one input, got 2. To read them as one log, pipe them in, in the order the server wrote them: cat -- 'run 1.log' -x.log | stage-lens explain - --target e2e",
  );
  assert.equal(
    severalInputsMessage('analyze', ['-', 'b.log'], [], EXPECTED),
    "expected one input file (or '-' for stdin), got 2: stdin is one input; read one file, or pipe the others in.",
  );
  assert.equal(
    followOneMessage(['server.log', 'server.log.1'], EXPECTED),
    "expected one input file (or '-' for stdin), got 2: --follow follows the one log the server is writing (stage-lens analyze --follow server.log); a rotated log is done growing.",
  );
});

test('the other arguments: the command line without the inputs, each taken out once', () => {
  assert.deepEqual(argsBesides(['a.log', '--format', 'csv', 'b.log', '--exclude-cold'], ['a.log', 'b.log']), [
    '--format',
    'csv',
    '--exclude-cold',
  ]);
  assert.deepEqual(argsBesides(['--since', '10:00', '--', '-a.log', '-b.log'], ['-a.log', '-b.log']), [
    '--since',
    '10:00',
  ]);
});
