import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportFileName } from '../../src/exportFileName';

test('an export is named by the session title, file-safe', () => {
  assert.equal(
    exportFileName(
      {
        id: 'launch-mabc-123456',
        title: 'Qwen3-TTS-12Hz-1.7B-CustomVoice (demo, cold-start) · qwen3_tts.yaml · Dec 1 14:02',
      },
      '.trace.json',
    ),
    'stage-lens-Qwen3-TTS-12Hz-1.7B-CustomVoice-demo-cold-start-qwen3_tts-Dec-1-14-02.trace.json',
  );
  assert.equal(
    exportFileName({ id: 'tail-x', title: 'log ../../etc/passwd · Dec 1 14:02' }, '.csv'),
    'stage-lens-log-..-..-etc-passwd-Dec-1-14-02.csv',
  );
  assert.equal(exportFileName({ id: 'import-1', title: '··· / ···' }, '.json'), 'stage-lens-import-1.json');
});
