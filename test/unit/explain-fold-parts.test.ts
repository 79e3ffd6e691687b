// Which tail parts explain, the Tail tab and the side panel name and which they sum into
// "N other parts": the top ones, any part of 5% or more of the excess, and never a lone leftover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldParts } from '../../server/core/explain/foldParts';
import type { TailPart } from '../../server/core/explain/types';

const part = (key: string, excessMs: number): TailPart => ({
  key,
  stageId: 0,
  stageKey: '0',
  phase: 'prefill',
  excessMs,
  share: excessMs / 1000,
  medianMs: 1,
  measuredIn: 1,
});
const keys = (parts: readonly TailPart[]): string[] => parts.map((p) => p.key);

test('beyond the top, parts under 5% each fold, one of 5% or more (either sign) is named', () => {
  const parts = [part('a', 900), part('b', 100), part('c', 20), part('d', 10), part('e', -70)];
  const { shown, folded } = foldParts(parts, 1000, 1);
  assert.deepEqual(keys(shown), ['a', 'b', 'e']);
  assert.deepEqual(keys(folded), ['c', 'd']);
});

test('a single leftover part is named, never folded as "1 other part"', () => {
  const parts = [part('a', 990), part('b', 8), part('c', 2)];
  assert.deepEqual(keys(foldParts(parts, 1000, 2).shown), ['a', 'b', 'c']);
  assert.deepEqual(foldParts(parts, 1000, 2).folded, []);
  // A large part named beyond the top leaves one small one: named too, in the parts' order.
  const more = [part('a', 900), part('b', -60), part('c', 1)];
  assert.deepEqual(keys(foldParts(more, 1000, 1).shown), ['a', 'b', 'c']);
});

test('with no excess there are no shares: only the top parts are named', () => {
  const parts = [part('a', 5), part('b', -3), part('c', -2)];
  assert.deepEqual(keys(foldParts(parts, 0, 1).shown), ['a']);
  assert.deepEqual(keys(foldParts(parts, 0, 1).folded), ['b', 'c']);
});
