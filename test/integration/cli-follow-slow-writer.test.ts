// `stage-lens analyze --follow` on a log written at a slow writer's pace (a piece every 100 ms,
// never quiet for long): a request is final only once the stream has been quiet for as long as
// the language server's capture waits, so the final summary is what `analyze` reads from the same
// bytes at once. The CLI is the built dist/cli.js as a real child process, the log a real file
// appended while followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { followLog, runCli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
const tmp = tempFolder('stage-lens-follow-slow-');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `bytes` in pieces of `size` bytes. */
function piecesOf(bytes: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.slice(at, at + size));
  return pieces;
}

/** Follows `log` while `pieces` are appended to it, one every `paceMs`; the final summary, from its table on. */
async function followWhileWritten(log: string, pieces: readonly string[], paceMs: number): Promise<string> {
  fs.writeFileSync(log, '');
  const cli = followLog(log);
  // Started and polling before the first byte.
  await sleep(800);
  for (const piece of pieces) {
    fs.appendFileSync(log, piece);
    await sleep(paceMs);
  }
  // Quiet long enough for the last poll to see the end, then Ctrl-C.
  await sleep(1000);
  return cli.interrupt();
}

/** `analyze <log>`'s table from the same bytes read at once. */
function readAtOnce(log: string): string {
  const r = runCli(['analyze', log]);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('analyze --follow: a stats record written seconds before its twin is joined with it, as analyze joins them', async () => {
  // The two stats files of log_utils.py as one input: each overall_request waits for its
  // orchestrator_request_e2e, written lines (and, at this pace, seconds and live frames) later.
  const bytes =
    fs.readFileSync(path.join(LOGS, 'log-utils-overall.stats.jsonl'), 'utf8') +
    fs.readFileSync(path.join(LOGS, 'log-utils-orchestrator.stats.jsonl'), 'utf8');
  const log = path.join(tmp, 'server.log.stats.jsonl');
  const followed = await followWhileWritten(log, piecesOf(bytes, 400), 100);
  const atOnce = readAtOnce(log);
  assert.match(atOnce, /Stage Lens: 2 requests/, atOnce);
  assert.match(followed, /Stage Lens: 2 requests/, followed);
  assert.doesNotMatch(followed, /repeated-request-ids|more than once/, followed);
  assert.equal(followed.replace(/^Source: .*\n/m, ''), atOnce.replace(/^Source: .*\n/m, ''));
});

test('analyze --follow: a request whose edge table comes a second after its stage table is one request, as analyze reads it', async () => {
  // Three requests through three stages, each printing its TransferEdgeStats table after its
  // StageRequestStats table; the first one's comes after a second of /metrics scrapes' access lines.
  const lines = fs.readFileSync(path.join(LOGS, 'negative-transfer.log'), 'utf8').split(/(?<=\n)/);
  const edgeTable = lines.findIndex((l) => l.includes('[TransferEdgeStats ')) - 1;
  const scrape = '(APIServer pid=12672) INFO:     127.0.0.1:40522 - "GET /metrics HTTP/1.1" 200 OK\n';
  const pieces = [
    lines.slice(0, edgeTable).join(''),
    ...Array<string>(15).fill(scrape),
    lines.slice(edgeTable).join(''),
  ];
  const log = path.join(tmp, 'server.log');
  const followed = await followWhileWritten(log, pieces, 100);
  const atOnce = readAtOnce(log);
  assert.match(atOnce, /Stage Lens: 3 requests/, atOnce);
  assert.equal(followed.replace(/^Source: .*\n/m, ''), atOnce.replace(/^Source: .*\n/m, ''));
});
