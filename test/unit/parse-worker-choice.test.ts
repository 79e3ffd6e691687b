// When `analyze` parses a log file in a worker thread without STAGE_LENS_PARSE_WORKER: a JSON
// report of a large file on a machine with a core free (its two threads want ~1.8 cores; on busy
// cores it is slower than one thread, docs/performance.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARSE_WORKER_MIN_BYTES, parseWorkerWorthIt } from '../../server/cli/parseInWorker';

const large = PARSE_WORKER_MIN_BYTES;

test('the JSON of a large log file on two cores with one free: parsed in a worker', () => {
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 2, load: 0.2, bytes: large }), true);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 2, load: 1, bytes: large }), true);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 8, load: 6.5, bytes: 200e6 }), true);
});

test('not for the table, CSV or trace, a small file, one core, or cores kept busy by other work', () => {
  assert.equal(parseWorkerWorthIt({ writesWhileRead: false, cores: 2, load: 0, bytes: large }), false);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 2, load: 0, bytes: large - 1 }), false);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 1, load: 0, bytes: large }), false);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 2, load: 1.3, bytes: large }), false);
  assert.equal(parseWorkerWorthIt({ writesWhileRead: true, cores: 8, load: 7.5, bytes: 200e6 }), false);
});
