// Import Log... of several files: the order they are read in (oldest first) and the import's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importName, importOrder } from '../../src/importFiles';
import { runNameOfSession } from '../../server/core/compare/runName';

test('rotations are read oldest first by their number or date, whatever the order picked or their times', () => {
  assert.deepEqual(
    importOrder([
      { path: '/logs/server.log', mtimeMs: 5 },
      { path: '/logs/server.log.1', mtimeMs: 9 },
      { path: '/logs/server.log.10.gz', mtimeMs: 1 },
      { path: '/logs/server.log.2.gz', mtimeMs: 2 },
    ]),
    ['/logs/server.log.10.gz', '/logs/server.log.2.gz', '/logs/server.log.1', '/logs/server.log'],
  );
  assert.deepEqual(
    importOrder([
      { path: '/l/omni.log', mtimeMs: 1 },
      { path: '/l/omni.log-20261130.gz', mtimeMs: 3 },
      { path: '/l/omni.log-20261128', mtimeMs: 2 },
    ]),
    ['/l/omni.log-20261128', '/l/omni.log-20261130.gz', '/l/omni.log'],
  );
});

test('files whose names say no order are read by when they were last written; unreadable ones first, by name', () => {
  assert.deepEqual(
    importOrder([
      { path: '/r/part-b.log', mtimeMs: 2_000 },
      { path: '/r/part-a.log', mtimeMs: 3_000 },
      { path: '/r/part-c.log', mtimeMs: 1_000 },
    ]),
    ['/r/part-c.log', '/r/part-b.log', '/r/part-a.log'],
  );
  assert.deepEqual(
    importOrder([
      { path: '/r/y.log', mtimeMs: null },
      { path: '/r/x.log', mtimeMs: null },
      { path: '/r/w.log', mtimeMs: 7 },
    ]),
    ['/r/x.log', '/r/y.log', '/r/w.log'],
  );
});

test('the import is named by its newest file and how many came before it', () => {
  assert.equal(importName(['/logs/server.log']), 'server.log');
  assert.equal(importName(['/logs/server.log.1', '/logs/server.log']), 'server.log and 1 earlier file');
  assert.equal(
    importName(['/a/server.log.2.gz', '/a/server.log.1', '/a/server.log']),
    'server.log and 2 earlier files',
  );
});

test('Compare names such a session as its views do: the newest file, its ordinal, the files before it', () => {
  const run = runNameOfSession({
    kind: 'import',
    title: 'server.log (2) + 2 earlier files · qwen3_tts.yaml · logged 08-21 00:00:00 – 00:09:58',
    description: '/logs/server.log',
    deployConfig: '/deploy/qwen3_tts.yaml',
    importOrdinal: 2,
    earlierFiles: 2,
  });
  assert.equal(run.name, 'server.log (2) + 2 earlier files · qwen3_tts.yaml');
  assert.equal(
    runNameOfSession({ kind: 'import', title: '', description: '/l/a.log', deployConfig: null }).name,
    'a.log',
  );
});
