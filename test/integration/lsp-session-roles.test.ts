// A session's stage roles through the language server (dist/server.js over stdio): the names
// of its file give the pipeline, the session's own stages may overrule them. A Qwen3-TTS log
// named for the AR -> diffusion model has a codec that printed audio: its SessionInfo names no
// roles (the views then name stages by id); the same log under its own name keeps them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const ROOT = path.resolve(__dirname, '..', '..');
const TTS_LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-session-roles-'));
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-session-roles-logs-'));
after(() => {
  killLanguageServers();
  fs.rmSync(storage, { recursive: true, force: true });
  fs.rmSync(logs, { recursive: true, force: true });
});

test(
  'a session named for another pipeline than its stages show names no roles; under its own name it keeps them',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const misnamed = path.join(logs, 'glm_image-run.log');
    fs.copyFileSync(TTS_LOG, misnamed);
    const rolesOf = async (file: string): Promise<Readonly<Record<string, string>> | undefined> => {
      const started = await lsp.request('stageLens/import', { path: file });
      const info = await waitFor('the import to end', async () => {
        const s = await lsp.session(started.id);
        return s?.status === 'exited' ? s : undefined;
      });
      return info.stageRoles;
    };
    assert.deepEqual(await rolesOf(misnamed), {});
    assert.deepEqual(await rolesOf(TTS_LOG), { '0': 'talker', '1': 'code2wav' });
  },
);
