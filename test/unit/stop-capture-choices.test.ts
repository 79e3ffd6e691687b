// What Stop Capture offers (src/stopCaptureChoices.ts): this window's captures, and apart,
// marked, those another window captures, which are stopped only there and named by title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionInfo } from '../../server/protocol';
import { capturedElsewhereMessage, stopCaptureChoices } from '../../src/stopCaptureChoices';

const session = (id: string, title: string, status: SessionInfo['status'], readOnly: boolean): SessionInfo => ({
  id,
  kind: 'tail',
  description: `/w/${id}.log`,
  title,
  startedAt: 1_000,
  status,
  requestCount: 3,
  deployConfig: null,
  lastError: null,
  exit: null,
  problemCount: 0,
  access: { readOnly, ownerPid: readOnly ? 24398 : 1, loaded: false },
});

test('captures of another window are set apart from this window’s; ended sessions are not offered', () => {
  const mine = session('tail-a', 'log mine.log · Dec 5 00:50', 'running', false);
  const theirs = session('tail-mx9osjlw-e207e9', 'log live.log · Dec 5 00:40', 'running', true);
  const ended = session('tail-c', 'log old.log · Dec 5 00:30', 'stopped', false);
  const endedElsewhere = session('tail-d', 'log older.log · Dec 5 00:20', 'stopped', true);
  const choices = stopCaptureChoices([theirs, ended, mine, endedElsewhere]);
  assert.deepEqual(
    choices.here.map((s) => s.id),
    ['tail-a'],
  );
  assert.deepEqual(
    choices.elsewhere.map((s) => s.id),
    ['tail-mx9osjlw-e207e9'],
  );
  assert.equal(
    capturedElsewhereMessage(theirs),
    'Stage Lens: log live.log · Dec 5 00:40 is captured in another window: stop it there.',
  );
});
