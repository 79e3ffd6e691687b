// A path's last segment without node:path: POSIX and Windows separators alike, whatever the
// platform the core runs on (a Windows path read on Linux is named by its file, not whole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseName } from '../../server/core/baseName';

test('the last segment of a POSIX path, a Windows path and a mixed one', () => {
  assert.equal(baseName('/w/deploy/qwen3_tts.yaml'), 'qwen3_tts.yaml');
  assert.equal(baseName('C:\\w\\deploy\\qwen3_tts.yaml'), 'qwen3_tts.yaml');
  assert.equal(baseName('\\\\host\\share\\run 2\\omni.log'), 'omni.log');
  assert.equal(baseName('C:\\w/deploy\\qwen3_tts.yaml'), 'qwen3_tts.yaml');
  assert.equal(baseName('qwen3_tts.yaml'), 'qwen3_tts.yaml');
});

test('trailing separators are not a segment; a root stays itself; empty stays empty', () => {
  assert.equal(baseName('/data/sessions/s-17/'), 's-17');
  assert.equal(baseName('C:\\data\\sessions\\s-17\\\\'), 's-17');
  assert.equal(baseName('/'), '/');
  assert.equal(baseName('\\'), '\\');
  assert.equal(baseName(''), '');
});
