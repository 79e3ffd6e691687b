// A session's line in the Compare Sessions... and Open Session... pickers: its request count
// with the noun in the right number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionPickDescription } from '../../src/sessionPickText';
import { countOf } from '../../server/shared';

const imported = { kind: 'import', status: 'exited', exit: null } as const;

test('the picker says "1 request", "0 requests", "1,024 requests"', () => {
  assert.equal(sessionPickDescription({ ...imported, requestCount: 1 }), '1 request · imported');
  assert.equal(sessionPickDescription({ ...imported, requestCount: 0 }), '0 requests · imported');
  assert.equal(sessionPickDescription({ ...imported, requestCount: 1024 }), '1,024 requests · imported');
});

test('countOf: singular for exactly one, an irregular plural when given', () => {
  assert.equal(countOf(1, 'input problem'), '1 input problem');
  assert.equal(countOf(2, 'input problem'), '2 input problems');
  assert.equal(countOf(1, 'replica', 'replicas'), '1 replica');
});
