// Import Log... of a log and its rotations (server.log.2.gz, server.log.1, server.log, cut inside
// tables and inside a line, as copytruncate cuts) over a real connection to the language server:
// read as one log, oldest first, they give the session the whole file gives (its requests, boots,
// problems and summary), named "server.log + 2 earlier files", there again after a restart; its
// export places each problem in its file as analyze does. A
// missing file reads nothing and names it; the same file twice is refused; a damaged .gz in the
// middle keeps what came before its break and names the file and the later files not read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { Finding, ImportParams, SessionInfo, SummaryResult } from '../../server/protocol';
import { DeployLspClient, ROOT } from './support/lspDeployHarness';
import { waitFor } from './support/waitFor';
import { runCli } from './support/cliProcess';

const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

let client: DeployLspClient;
let scratch: string;

function startServer(): Promise<DeployLspClient> {
  return DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
}

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-import-rotations-'));
  client = await startServer();
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The sample cut in three: at a line inside a table, and in the middle of a line of another table. */
function rotatedParts(): [Buffer, Buffer, Buffer] {
  const text = fs.readFileSync(SAMPLE);
  const lines = text.toString('utf8').split(/(?<=\n)/);
  const first = Buffer.byteLength(lines.slice(0, 503).join(''));
  const second = Buffer.byteLength(lines.slice(0, 977).join('')) + 30;
  assert.notEqual(text[second - 1], 10);
  return [text.subarray(0, first), text.subarray(first, second), text.subarray(second)];
}

function write(name: string, bytes: Buffer): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function ended(started: SessionInfo): Promise<SessionInfo> {
  return waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
}

async function imported(params: ImportParams): Promise<SessionInfo> {
  return ended(await client.request<SessionInfo>('stageLens/import', params));
}

/** What of a summary is the log's, not the session's. */
function logFacts(s: SummaryResult): unknown {
  return {
    requestCount: s.requestCount,
    stages: s.stages,
    findings: s.findings,
    endToEnd: s.endToEnd,
  };
}

async function summaryOf(sessionId: string): Promise<SummaryResult> {
  return client.request<SummaryResult>('stageLens/summary', { sessionId });
}

test('a log and its rotations read oldest first are the whole log: the same requests, problems and summary', async () => {
  const whole = await imported({ path: write('whole.log', fs.readFileSync(SAMPLE)) });
  assert.equal(whole.requestCount, 25);
  const [oldest, middle, newest] = rotatedParts();
  const earlier = [write('server.log.2.gz', zlib.gzipSync(oldest)), write('server.log.1', middle)];
  const current = write('server.log', newest);
  const joined = await imported({ path: current, earlier });
  assert.equal(joined.status, 'exited', joined.lastError ?? '');
  assert.equal(joined.lastError, null);
  assert.equal(joined.requestCount, 25);
  assert.equal(joined.problemCount, whole.problemCount);
  assert.equal(joined.description, current);
  assert.equal(joined.earlierFiles, 2);
  assert.match(joined.title, /^server\.log \+ 2 earlier files · logged /);
  assert.equal(joined.title.replace(/^.*? · /, ''), whole.title.replace(/^.*? · /, ''));
  assert.deepEqual(logFacts(await summaryOf(joined.id)), logFacts(await summaryOf(whole.id)));

  // Read in another order, a table cut by a rotation is not whole: the order is what the caller gives.
  const shuffled = await imported({ path: current, earlier: [earlier[1] as string, earlier[0] as string] });
  assert.notDeepEqual(logFacts(await summaryOf(shuffled.id)), logFacts(await summaryOf(whole.id)));

  // Another language server on the same storage reopens it: the same name and numbers.
  await client.stop();
  client = await startServer();
  const reopened = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === joined.id);
  assert.equal(reopened?.title, joined.title);
  assert.equal(reopened?.earlierFiles, 2);
  assert.deepEqual(logFacts(await summaryOf(joined.id)), logFacts(await summaryOf(whole.id)));
});

test('the export places each problem in its file as analyze of the same files does, after a restart too', async () => {
  const [oldest, middle, newest] = rotatedParts();
  // A table cut off in the middle file, at its line 100, by a process that never finishes it.
  const lines = middle.toString('utf8').split('\n');
  const cutTitle =
    '(APIServer pid=9999) INFO 08-21 18:00:10 [vllm_omni/metrics/stats.py:601] [RequestE2EStats [request_id=speech-cut]]';
  lines.splice(99, 0, cutTitle);
  const earlier = [
    write('placed.log.2.gz', zlib.gzipSync(oldest)),
    write('placed.log.1', Buffer.from(lines.join('\n'))),
  ];
  const current = write('placed.log', newest);
  const session = await imported({ path: current, earlier });
  assert.equal(session.status, 'exited', session.lastError ?? '');

  type Placed = {
    problems: { line: number; message: string; file?: string; fileLine?: number }[];
    inputFiles?: { file: string; firstLine: number; lines: number }[];
  };
  const exported = async (name: string): Promise<Placed> => {
    const out = path.join(scratch, name);
    await client.request('stageLens/export', { sessionId: session.id, format: 'json', path: out });
    return JSON.parse(fs.readFileSync(out, 'utf8')) as Placed;
  };
  const doc = await exported('placed.json');
  assert.deepEqual(doc.inputFiles, [
    { file: earlier[0], firstLine: 1, lines: 503 },
    { file: earlier[1], firstLine: 504, lines: 476 },
    { file: current, firstLine: 979, lines: 377 },
  ]);
  const placed = doc.problems.find((p) => p.message.includes('speech-cut'));
  assert.deepEqual(
    { line: placed?.line, file: placed?.file, fileLine: placed?.fileLine },
    {
      line: 603,
      file: earlier[1],
      fileLine: 100,
    },
  );
  // `stage-lens analyze` of the same files gives the same.
  const cli = runCli(['analyze', current, ...earlier, '--format', 'json']);
  assert.equal(cli.status, 0, cli.stderr);
  const analyzed = JSON.parse(cli.stdout) as Placed;
  assert.deepEqual(doc.problems, analyzed.problems);
  assert.deepEqual(doc.inputFiles, analyzed.inputFiles);

  // The places are kept with the session: another language server on the same storage exports the same.
  await client.stop();
  client = await startServer();
  assert.deepEqual(await exported('placed-again.json'), doc);
  // One file imported alone has nothing to place.
  const alone = await imported({ path: current });
  const out = path.join(scratch, 'alone.json');
  await client.request('stageLens/export', { sessionId: alone.id, format: 'json', path: out });
  assert.equal((JSON.parse(fs.readFileSync(out, 'utf8')) as Placed).inputFiles, undefined);
});

test('a missing file reads nothing and is named; the same file given twice is refused', async () => {
  const current = write('missing-case.log', fs.readFileSync(SAMPLE));
  const gone = path.join(scratch, 'missing-case.log.1');
  const missing = await imported({ path: current, earlier: [gone] });
  assert.equal(missing.status, 'error');
  assert.equal(missing.lastError, `${current} and an earlier file: cannot import ${gone}: no such file`);
  assert.equal(missing.requestCount, 0);

  await assert.rejects(
    client.request<SessionInfo>('stageLens/import', {
      path: current,
      earlier: [path.join(scratch, '.', 'missing-case.log')],
    }),
    (e: Error) => e.message === `import: ${current} is given twice; each file is read once`,
  );
});

test('a damaged .gz among the files: what came before its break is kept, and the files not read are named', async () => {
  const [oldest, middle, newest] = rotatedParts();
  const gz = zlib.gzipSync(Buffer.concat([oldest, middle]));
  const cut = gz.subarray(0, gz.length >> 1);
  const kept = zlib.gunzipSync(cut, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const alone = await imported({ path: write('kept-part.log', kept) });
  const session = await imported({
    path: write('damaged.log', newest),
    earlier: [write('damaged.log.1.gz', cut)],
  });
  // An error, not a note: the session is not the whole log.
  assert.equal(session.status, 'error');
  assert.equal(session.requestCount, alone.requestCount);
  assert.ok(session.requestCount > 0 && session.requestCount < 25, String(session.requestCount));
  assert.match(
    session.lastError ?? '',
    /^\/.*\/damaged\.log and an earlier file: the gzip data of damaged\.log\.1\.gz ends after .* of log: unexpected end of file; the import stopped there, so damaged\.log was not read \(what came before the break is kept\)$/,
  );
  const findings = await client.request<Finding[]>('stageLens/findings', { sessionId: session.id });
  const finding = findings.find((f) => f.code === 'input-gzip-damaged');
  assert.match(
    finding?.message ?? '',
    /^The gzip data of damaged\.log\.1\.gz ends after .*: the \d+ requests before it are read; the rest of the file is not\./,
  );
});
