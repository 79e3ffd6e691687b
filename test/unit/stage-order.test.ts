// One order of stages for every list of them: stage id, then segment; a column that names no stage
// id after every numbered one, by name (a name that starts with a digit included).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareStageKeys, stagePositionOf } from '../../server/core/analysis/stageOrder';

test('stage keys in stage order: numbered by id then segment, unnumbered after, by name', () => {
  const keys = ['codec', '10', '1a', '2', '1_2', '(x)', '1', '0', '1_x'];
  assert.deepEqual([...keys].sort(compareStageKeys), ['0', '1', '1_2', '2', '10', '(x)', '1_x', '1a', 'codec']);
  assert.deepEqual([...keys].reverse().sort(compareStageKeys), [...keys].sort(compareStageKeys));
});

test('a stage key read as stage id and segment', () => {
  assert.deepEqual(stagePositionOf('3'), { stageId: 3, segment: 1 });
  assert.deepEqual(stagePositionOf('1_2'), { stageId: 1, segment: 2 });
  assert.deepEqual(stagePositionOf('1_x'), { stageId: null, segment: 1 });
  assert.deepEqual(stagePositionOf('talker'), { stageId: null, segment: 1 });
  assert.deepEqual(stagePositionOf(''), { stageId: null, segment: 1 });
});
