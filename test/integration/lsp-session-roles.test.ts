// A session's stage roles through the language server (dist/server.js over stdio): the names
// of its file give the pipeline, the session's own stages may overrule them. A Qwen3-TTS log
// named for the AR -> diffusion model has a codec that printed audio: its SessionInfo names no
// roles (the views then name stages by id); the same log under its own name keeps them. The roles
// judged are saved with the session, for `stage-lens explain` of its folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import type { SessionInfo } from '../../server/protocol';

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

test(
  "a session's judged roles are saved in its session.json, and explain of the saved folder names its stages with them",
  { timeout: 60_000 },
  async () => {
    const own = fs.mkdtempSync(path.join(storage, 'saved-'));
    const lsp = await startLanguageServer(own);
    const info = await lsp.importLog(TTS_LOG);
    const meta = path.join(own, 'sessions', info.id, 'session.json');
    const saved = await waitFor('the roles in session.json', () => {
      const stored = (JSON.parse(fs.readFileSync(meta, 'utf8')) as { info: SessionInfo }).info;
      return stored.stageRoles !== undefined && stored.requestCount === 6 ? stored.stageRoles : undefined;
    });
    assert.deepEqual(saved, { '0': 'talker', '1': 'code2wav' });

    const explain = spawnSync(
      process.execPath,
      [path.join(ROOT, 'dist', 'cli.js'), 'explain', path.dirname(meta), '--format', 'json'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(explain.status, 0, explain.stderr);
    const report = JSON.parse(explain.stdout) as { stageRoles: Record<string, string>; stageRolesFrom: string };
    assert.deepEqual(report.stageRoles, { '0': 'talker', '1': 'code2wav' });
    assert.equal(report.stageRolesFrom, 'session');

    // A log whose name says no pipeline: no roles saved, until the user matches it to a deploy config whose name does.
    const plain = path.join(logs, 'server.log');
    fs.copyFileSync(TTS_LOG, plain);
    const unnamed = await lsp.importLog(plain);
    const unnamedMeta = path.join(own, 'sessions', unnamed.id, 'session.json');
    const storedRoles = () =>
      (JSON.parse(fs.readFileSync(unnamedMeta, 'utf8')) as { info: SessionInfo }).info.stageRoles;
    assert.deepEqual(await waitFor('no roles in session.json', storedRoles), {});
    await lsp.request('stageLens/matchDeployConfig', {
      sessionId: unnamed.id,
      deployConfig: path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml'),
    });
    assert.deepEqual(
      await waitFor('the roles the config names', () =>
        Object.keys(storedRoles() ?? {}).length > 0 ? storedRoles() : undefined,
      ),
      { '0': 'talker', '1': 'code2wav' },
    );
  },
);
