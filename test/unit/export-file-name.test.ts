import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportFileName } from '../../src/exportFileName';
import { sessionTitle } from '../../server/capture/sessionTitle';

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

test("an imported log's export is named by its file, ordinal and log span, not by the import time", () => {
  const title = sessionTitle({
    info: {
      id: 'import-mabc-1',
      kind: 'import',
      description: '/data/run-42.log',
      title: '',
      startedAt: new Date(2026, 11, 1, 14, 2).getTime(),
      status: 'exited',
      requestCount: 60,
      deployConfig: '/ws/qwen3_tts.yaml',
      lastError: null,
      exit: null,
      problemCount: 0,
      logSpan: { first: '10-19 07:12:04', last: '10-19 07:12:12' },
      importOrdinal: 2,
    },
    import: { path: '/data/run-42.log', deployConfig: '/ws/qwen3_tts.yaml' },
  });
  assert.equal(
    exportFileName({ id: 'import-mabc-1', title }, '.json'),
    'stage-lens-run-42.log-2-qwen3_tts-logged-10-19-07-12-04-07-12-12.json',
  );
});
