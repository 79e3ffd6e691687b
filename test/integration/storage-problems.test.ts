// Stored data that is wrong never stops the language server (a real one, over a real
// connection): a session.json of the wrong shape, one that is not JSON, one that names
// another session than its folder, and a chunks.idx with a corrupt line in the middle.
// initialize answers and the deploy-YAML features work; the bad sessions are left out of
// the list with a warning the user sees (window/showMessage, with no link a value from the
// file could make) and their folders are left
// as they were; the corrupt index loses nothing: every request after the bad line is
// there, and the line is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { waitFor } from './support/waitFor';
import { stoppedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = fs.readFileSync(path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'));
const storage = storageForFile('stage-lens-bad-storage-');

function requestIds(bytes: Buffer): string[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(bytes));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.requests].map((r) => r.requestId);
}

function saved(id: string, startedAt: number, bytes: Buffer, pieces: number): SessionFiles {
  const files = new SessionFiles(storage, id);
  files.writeMeta({
    info: stoppedSession({ id, kind: 'import', description: `/logs/${id}.log`, startedAt, requestCount: 0 }),
    import: { path: `/logs/${id}.log` },
  });
  const size = Math.ceil(bytes.length / pieces);
  for (let i = 0; i < bytes.length; i += size)
    files.append({ stream: 'file', bytes: bytes.subarray(i, i + size), capturedAt: startedAt + i });
  files.close();
  return files;
}

function rawSessionJson(id: string, text: string): string {
  const dir = path.join(storage, 'sessions', id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'session.json'), text);
  fs.writeFileSync(path.join(dir, 'file.log'), SAMPLE.subarray(0, 1000));
  return dir;
}

test(
  'bad stored sessions are skipped with a warning; a corrupt chunk index keeps everything after it',
  { timeout: 60_000 },
  async () => {
    const t0 = Date.UTC(2025, 6, 24, 10);
    saved('import-good', t0, SAMPLE.subarray(0, 40_000), 4);
    const corrupt = saved('import-corrupt-index', t0 + 1000, SAMPLE, 12);
    // The sixth of twelve index lines is garbage now (a torn block of a crashed disk).
    const idx = path.join(corrupt.dir, 'chunks.idx');
    const lines = fs.readFileSync(idx, 'latin1').split('\n');
    lines[5] = '\u0000\u0000\u0000le 1\u0000 ??';
    fs.writeFileSync(idx, lines.join('\n'), 'latin1');
    // What the issue saw: no `info` at all ("reading 'status'").
    const noInfo = rawSessionJson('launch-no-info', JSON.stringify({ launch: { argv: ['vllm', 'serve'], cwd: '/' } }));
    const torn = rawSessionJson('tail-torn', '{"info": {"id": "tail-torn", "kind": "ta');
    const wrongStatus = rawSessionJson(
      'tail-wrong-status',
      JSON.stringify({
        info: {
          id: 'tail-wrong-status',
          kind: 'tail',
          description: 'x',
          startedAt: t0,
          // A value the warning quotes; VS Code would draw the link in it as one that runs the command.
          status: 'paused [Fix](command:workbench.action.openSettings)',
          requestCount: 0,
          deployConfig: null,
          lastError: null,
          exit: null,
          problemCount: 0,
        },
      }),
    );
    // A folder copied under another name still names the original session.
    fs.cpSync(path.join(storage, 'sessions', 'import-good'), path.join(storage, 'sessions', 'import-copy'), {
      recursive: true,
    });
    const before = new Map(
      ['launch-no-info', 'tail-torn', 'tail-wrong-status', 'import-copy'].map((id) => [
        id,
        fs.readFileSync(path.join(storage, 'sessions', id, 'session.json'), 'utf8'),
      ]),
    );

    const server = await startLanguageServer(storage);
    assert.ok(server.initialized.capabilities.hoverProvider, 'initialize answered with the deploy features');
    assert.deepEqual(
      (await server.list()).map((s) => s.id),
      ['import-corrupt-index', 'import-good'],
    );

    // Each refused session is named to the user, with what is wrong, and its folder kept as it was.
    await waitFor('four warnings', () => (server.warnings.length >= 4 ? true : undefined), 10_000);
    const warning = (id: string): string =>
      server.warnings.find((w) => w.includes(`saved session '${id}' skipped`)) ?? '';
    assert.match(
      warning('launch-no-info'),
      /session\.json\.info is missing, not an object; its folder is left as it is/,
    );
    assert.match(warning('tail-torn'), /session\.json is not JSON/);
    assert.match(
      warning('tail-wrong-status'),
      /session\.json\.info\.status is the text "paused \[Fix\]\u200b\(command:workbench\.action\.op…", not one of starting, running, stopped, exited, crashed, error/,
    );
    for (const w of server.warnings) assert.doesNotMatch(w, /\]\(/, 'no link for VS Code to draw in a warning');
    assert.match(warning('import-copy'), /names the session "import-good", but its folder is "import-copy"/);
    assert.ok(warning('launch-no-info').includes(path.join(noInfo, 'session.json')));
    for (const [id, text] of before)
      assert.equal(
        fs.readFileSync(path.join(storage, 'sessions', id, 'session.json'), 'utf8'),
        text,
        `${id} untouched`,
      );
    assert.ok(fs.existsSync(path.join(torn, 'file.log')) && fs.existsSync(path.join(wrongStatus, 'file.log')));
    const problems = await server.request('stageLens/storageProblems', {});
    assert.deepEqual(problems.map((p) => [p.sessionId, p.skipped]).sort(), [
      ['import-copy', true],
      ['launch-no-info', true],
      ['tail-torn', true],
      ['tail-wrong-status', true],
    ]);

    // The deploy-YAML features answer.
    const yaml = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml');
    const text = fs.readFileSync(yaml, 'utf8');
    const uri = pathToFileURL(yaml).href;
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const line = text.split('\n').findIndex((l) => l.startsWith('async_chunk: true'));
    const hover = await server.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line, character: 2 },
    });
    assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /async/i);

    // The session with the corrupt index line: every request, in order, and the line reported.
    const summary = await server.request('stageLens/summary', { sessionId: 'import-corrupt-index' });
    const expected = requestIds(SAMPLE);
    assert.equal(summary.requestCount, expected.length);
    const page = await server.request('stageLens/requests', {
      sessionId: 'import-corrupt-index',
      offset: 0,
      limit: 100,
    });
    assert.deepEqual(
      page.requests.map((r) => r.requestId),
      expected,
    );
    await waitFor(
      'the index problem',
      () => (server.warnings.some((w) => w.includes('chunks.idx line 6 is not a chunk entry')) ? true : undefined),
      10_000,
    );
    assert.ok(
      (await server.request('stageLens/storageProblems', {})).some(
        (p) => p.sessionId === 'import-corrupt-index' && !p.skipped && p.path === idx,
      ),
    );
    // Opened and counted: the list has the count now.
    assert.equal((await server.session('import-corrupt-index'))?.requestCount, expected.length);
    server.child.kill('SIGTERM');
  },
);
