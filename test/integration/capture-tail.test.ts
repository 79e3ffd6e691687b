// Tail source and fileReads against real files: appends with partial lines, copytruncate,
// rotation by rename, deletion, a file that appears late, big files in chunks; import with
// progress and abort. Every test checks bytes received == bytes written, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TailSource, type TailOptions } from '../../server/capture/tailSource';
import { fileReads, type FileProgress } from '../../server/capture/importFile';
import { Recorder } from './support/captureRecorder';

const INTERVAL_MS = 20;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-tail-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function follow(
  t: { after(fn: () => Promise<void>): void },
  options: Omit<TailOptions, 'intervalMs'> & { intervalMs?: number },
): { source: TailSource; rec: Recorder } {
  const source = new TailSource({ intervalMs: INTERVAL_MS, ...options });
  const rec = new Recorder();
  t.after(() => source.stop());
  source.start(rec);
  return { source, rec };
}

/** Waits until the source has delivered exactly `expected` (and fails on anything else). */
async function received(rec: Recorder, expected: string, timeoutMs = 5000): Promise<void> {
  await rec.until(
    () => rec.bytes().length >= Buffer.byteLength(expected),
    `${Buffer.byteLength(expected)} bytes`,
    timeoutMs,
  );
  assert.equal(rec.text('file'), expected);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('follows appends, passing partial lines through as bytes', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, 'INFO start\n[Stage table] req');
  const { rec, source } = follow(t, { path: file, fromStart: true });
  await rec.untilStatus('running');
  assert.equal(rec.statuses[rec.statuses.length - 1]?.detail, `following ${file}`);
  let written = 'INFO start\n[Stage table] req';
  await received(rec, written);
  // Writes that split lines, UTF-8 sequences and CRLF continuations at odd places.
  const pieces = ['uest_id=a\r', '\n| stage | 0 ', '| 1 |\n| é', 'ß |\n', 'tail without newline'];
  const fd = fs.openSync(file, 'a');
  t.after(() => fs.closeSync(fd));
  for (const piece of pieces) {
    fs.writeSync(fd, piece);
    written += piece;
    await sleep(INTERVAL_MS / 2);
  }
  await received(rec, written);
  assert.ok(rec.chunks.every((c) => c.stream === 'file'));
  assert.equal(source.bytesRead, Buffer.byteLength(written));
  assert.equal(source.size, Buffer.byteLength(written));
  await source.stop();
  assert.equal(rec.lastStatus?.status, 'stopped');
});

test('fromStart false skips what the file already holds', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, 'old line 1\nold line 2\n');
  const { rec } = follow(t, { path: file, fromStart: false });
  await rec.untilStatus('running');
  await sleep(INTERVAL_MS * 3);
  fs.appendFileSync(file, 'new line\n');
  await received(rec, 'new line\n');
});

test('copytruncate: the file shrinks, reading starts again from 0', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, '');
  const { rec } = follow(t, { path: file, fromStart: true });
  const before = 'line 1 before rotation\nline 2 before rotation\n';
  fs.appendFileSync(file, before);
  await received(rec, before);
  // logrotate copytruncate: copy aside, truncate in place; the writer keeps its O_APPEND fd.
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, 'after 1\n');
  await rec.untilNotice(/was truncated/);
  fs.appendFileSync(file, 'after 2\n');
  await received(rec, `${before}after 1\nafter 2\n`);
});

/** Lines like a server's, numbered: each must arrive exactly once. */
const requestLines = (from: number, to: number, pad = ''): string => {
  let out = '';
  for (let i = from; i <= to; i++)
    out += `INFO 07-24 10:00:${String(i).padStart(2, '0')} [stats.py:1] request req-${String(i).padStart(3, '0')} finished${pad}\n`;
  return out;
};

/** Resolves once a poll's reading is surely over: the next poll is `intervalMs` away. */
const betweenPolls = (): Promise<void> => sleep(150);

test('copytruncate race: bytes written after the last poll and before the truncation are read from the copy', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, '');
  const { rec } = follow(t, { path: file, fromStart: true, intervalMs: 1500 });
  const before = requestLines(1, 3);
  fs.appendFileSync(file, before);
  await received(rec, before);
  await betweenPolls();
  // Between two polls: the writer appends, logrotate copies and truncates, the writer goes on.
  const lastBefore = requestLines(4, 4);
  fs.appendFileSync(file, lastBefore);
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  const after = requestLines(5, 5);
  fs.appendFileSync(file, after);
  await received(rec, before + lastBefore + after);
  assert.ok(
    rec.notices.some((n) =>
      n.includes(`the ${Buffer.byteLength(lastBefore)} bytes written just before were read from its copy ${file}.1`),
    ),
    JSON.stringify(rec.notices),
  );
});

test('copytruncate race: a writer that is past the old offset again by the next poll', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, '');
  const { rec, source } = follow(t, { path: file, fromStart: true, intervalMs: 1500 });
  const before = requestLines(1, 2);
  fs.appendFileSync(file, before);
  await received(rec, before);
  await betweenPolls();
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  // Longer than what was read: the size alone would say "it grew" and read from the middle.
  const after = requestLines(3, 6, ' with a longer line than before');
  assert.ok(Buffer.byteLength(after) > Buffer.byteLength(before));
  fs.appendFileSync(file, after);
  await received(rec, before + after);
  assert.equal(source.bytesRead, Buffer.byteLength(after));
  await rec.untilNotice(/was truncated/);
});

test('copytruncate race: new content that starts like the old is still a truncation', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  const banner = 'INFO 07-24 10:00:00 [api_server.py:1] vLLM-Omni API server version 0.1\n';
  fs.writeFileSync(file, banner);
  const { rec } = follow(t, { path: file, fromStart: true, intervalMs: 1500 });
  const before = requestLines(1, 3);
  fs.appendFileSync(file, before);
  await received(rec, banner + before);
  await betweenPolls();
  fs.truncateSync(file, 0);
  // The same first bytes (a restarted server prints the same banner), then other requests, past the old offset.
  const after = banner + requestLines(4, 8);
  fs.appendFileSync(file, after);
  await received(rec, banner + before + after);
  await rec.untilNotice(/was truncated; reading it again from the start \(no copy/);
});

test('rotation by rename: bytes written to the old file around the rotation are not lost', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  const writer = fs.openSync(file, 'a');
  t.after(() => fs.closeSync(writer));
  fs.writeSync(writer, 'A: first\n');
  const { rec } = follow(t, { path: file, fromStart: true });
  await received(rec, 'A: first\n');
  // All before the next poll: the last write, the rename, a write by the writer that has
  // not reopened yet, then the new file with its first bytes.
  fs.writeSync(writer, 'B: just before rotation\n');
  fs.renameSync(file, `${file}.1`);
  fs.writeSync(writer, 'C: still to the old fd\n');
  fs.writeFileSync(file, 'D: new file\n');
  await received(rec, 'A: first\nB: just before rotation\nC: still to the old fd\nD: new file\n');
  assert.ok(
    rec.notices.some((n) => /was rotated/.test(n)),
    JSON.stringify(rec.notices),
  );
});

test('rotation by rename with a gap: the old file is read until the new one appears', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  const writer = fs.openSync(file, 'a');
  t.after(() => fs.closeSync(writer));
  const { rec } = follow(t, { path: file, fromStart: true });
  fs.writeSync(writer, 'one\n');
  await received(rec, 'one\n');
  fs.renameSync(file, `${file}.1`);
  await sleep(INTERVAL_MS * 4);
  fs.writeSync(writer, 'two, after the rename\n');
  await received(rec, 'one\ntwo, after the rename\n');
  fs.writeFileSync(file, 'three, new file\n');
  await received(rec, 'one\ntwo, after the rename\nthree, new file\n');
  await rec.untilNotice(/was rotated/);
});

test('deleted, then created again: waits, then reads the new file from the start', async (t) => {
  const file = path.join(tempDir(t), 'server.log');
  fs.writeFileSync(file, 'before delete\n');
  const { rec } = follow(t, { path: file, fromStart: true });
  await received(rec, 'before delete\n');
  fs.unlinkSync(file);
  await rec.untilNotice(/was deleted; waiting for it to come back/);
  fs.writeFileSync(file, 'after recreate\n');
  await received(rec, 'before delete\nafter recreate\n');
  await rec.untilNotice(/appeared/);
  assert.ok(!rec.statuses.some((s) => s.status === 'error'));
});

test('a file that does not exist yet: running, waiting, then read whole when it appears', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'later.log');
  // fromStart false: what the file holds when it appears is still new to us.
  const { rec } = follow(t, { path: file, fromStart: false });
  await rec.untilStatus('running');
  assert.equal(rec.lastStatus?.detail, `waiting for ${file} to appear`);
  assert.deepEqual(rec.notices, [`waiting for ${file} to appear`]);
  await sleep(INTERVAL_MS * 3);
  assert.equal(rec.notices.length, 1, 'the waiting notice is given once');
  fs.writeFileSync(file, 'first line\npartial');
  await received(rec, 'first line\npartial');
  fs.appendFileSync(file, ' line\n');
  await received(rec, 'first line\npartial line\n');
});

test('a large existing file is read in bounded chunks, with progress', async (t) => {
  const file = path.join(tempDir(t), 'big.log');
  const content = Buffer.alloc(3 * 1024 * 1024 + 123, 'x');
  for (let i = 0; i < content.length; i += 1000) content[i] = 0x0a;
  fs.writeFileSync(file, content);
  const chunkBytes = 64 * 1024;
  const { rec, source } = follow(t, { path: file, fromStart: true, chunkBytes });
  await rec.until(() => source.bytesRead === content.length, 'the whole file');
  assert.equal(source.size, content.length);
  assert.ok(rec.chunks.length >= content.length / chunkBytes, `${rec.chunks.length} chunks`);
  assert.ok(rec.chunks.every((c) => c.chunk.length <= chunkBytes));
  assert.ok(rec.bytes().equals(content));
});

test('a path that is a directory is an error, not a crash', async (t) => {
  const dir = tempDir(t);
  const { rec } = follow(t, { path: dir, fromStart: true });
  await rec.untilStatus('error');
  assert.match(rec.lastStatus?.detail ?? '', /cannot read .*directory/);
});

test('fileReads reads the whole file in chunks with progress', async (t) => {
  const file = path.join(tempDir(t), 'import.log');
  const content = Buffer.from('Engine 000: Avg prompt throughput: 1.0 tokens/s\n'.repeat(40000));
  fs.writeFileSync(file, content);
  const chunks: Buffer[] = [];
  const progress: FileProgress[] = [];
  for await (const chunk of fileReads(file, { chunkBytes: 256 * 1024, onProgress: (p) => progress.push(p) }))
    chunks.push(chunk);
  assert.ok(Buffer.concat(chunks).equals(content));
  assert.equal(chunks.length, Math.ceil(content.length / (256 * 1024)));
  assert.deepEqual(progress[0], { bytesRead: 0, size: content.length });
  assert.deepEqual(progress[progress.length - 1], { bytesRead: content.length, size: content.length });
  assert.equal(progress.length, chunks.length + 1);
  assert.ok(progress.every((p, i) => i === 0 || p.bytesRead > (progress[i - 1]?.bytesRead ?? 0)));
});

test('fileReads stops when aborted and throws an AbortError', async (t) => {
  const file = path.join(tempDir(t), 'import.log');
  const content = Buffer.alloc(4 * 1024 * 1024, 'y');
  fs.writeFileSync(file, content);
  const controller = new AbortController();
  let delivered = 0;
  let calls = 0;
  const readAll = async (reads: AsyncIterable<Buffer>, onChunk: (c: Buffer) => void): Promise<void> => {
    for await (const chunk of reads) onChunk(chunk);
  };
  await assert.rejects(
    readAll(fileReads(file, { chunkBytes: 256 * 1024, signal: controller.signal }), (c) => {
      delivered += c.length;
      if (++calls === 2) controller.abort();
    }),
    (err: Error) => err.name === 'AbortError',
  );
  assert.equal(delivered, 2 * 256 * 1024, 'no chunk after the abort');
  await assert.rejects(
    readAll(fileReads(file, { signal: AbortSignal.abort() }), () => undefined),
    {
      name: 'AbortError',
    },
  );
  await assert.rejects(
    readAll(fileReads(path.join(path.dirname(file), 'missing.log')), () => undefined),
    {
      code: 'ENOENT',
    },
  );
});
