// Several files read as one log: the parser's line numbers count through them, and the report
// places each back in its file. Checked against the joined text itself, for files of every shape
// (empty, one line, a last line without `\n` running on into the next file) in chunks of any size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLinesText, JoinedLineCounter, placeOfLine, type FileLines } from '../../server/core/joinedLines';
import { JoinedFiles } from '../../server/capture/joinedFiles';
import { parseLogText } from '../../server/core/log/logStreamParser';

/** A seeded generator (mulberry32): the same files every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function counted(files: readonly [string, string][], chunkOf: (left: number) => number): FileLines[] {
  const counter = new JoinedLineCounter();
  for (const [name, text] of files) {
    counter.startFile(name);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length;) {
      const n = Math.max(1, Math.min(bytes.length - at, chunkOf(bytes.length - at)));
      counter.count(bytes.subarray(at, at + n));
      at += n;
    }
  }
  return counter.files();
}

/** Where joined line `line` begins, read off the joined text: the file holding its first byte, and that file's line. */
function truePlace(files: readonly [string, string][], line: number): { file: string; line: number } | null {
  const joined = files.map(([, text]) => text).join('');
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = joined.indexOf('\n', offset);
    if (nl === -1) return null;
    offset = nl + 1;
  }
  if (offset >= joined.length) return null;
  let start = 0;
  for (const [file, text] of files) {
    if (offset < start + text.length) {
      const before = text.slice(0, offset - start);
      return { file, line: before.split('\n').length };
    }
    start += text.length;
  }
  return null;
}

test('each file is placed as the joined text says, whatever its shape and however its text is cut', () => {
  const next = random(7);
  const pieces = ['', 'a\n', 'b', '\n', 'cc\ndd\n', 'tail without newline', '\n\n'];
  for (let round = 0; round < 300; round++) {
    const files: [string, string][] = [];
    const count = 1 + Math.floor(next() * 5);
    for (let f = 0; f < count; f++) {
      let text = '';
      const parts = Math.floor(next() * 5);
      for (let p = 0; p < parts; p++) text += pieces[Math.floor(next() * pieces.length)] as string;
      files.push([`server.log.${count - f - 1}`, text]);
    }
    const chunk = 1 + Math.floor(next() * 4);
    const lines = counted(files, () => chunk);
    const joinedLines = files
      .map(([, t]) => t)
      .join('')
      .split('\n').length;
    for (let line = 1; line <= joinedLines + 1; line++)
      assert.deepEqual(placeOfLine(lines, line), truePlace(files, line), `${JSON.stringify(files)} line ${line}`);
  }
});

test('the counts of a log and its rotations, and how the report says them', () => {
  const files: [string, string][] = [
    ['server.log.2', 'one\ntwo\n'],
    ['server.log.1', ''],
    ['server.log.1b', 'three\nfour'],
    ['server.log', ' goes on\nfive\n'],
  ];
  const lines = counted(files, (left) => left);
  assert.deepEqual(lines, [
    { file: 'server.log.2', firstLine: 1, lines: 2 },
    { file: 'server.log.1', firstLine: 3, lines: 0 },
    { file: 'server.log.1b', firstLine: 3, lines: 2 },
    { file: 'server.log', firstLine: 4, lines: 2 },
  ]);
  // "four goes on" begins in server.log.1b: it is that file's line, not server.log's.
  assert.deepEqual(placeOfLine(lines, 4), { file: 'server.log.1b', line: 2 });
  assert.deepEqual(placeOfLine(lines, 5), { file: 'server.log', line: 2 });
  assert.equal(placeOfLine(lines, 6), null);
  assert.equal(placeOfLine(lines, 0), null);
  assert.equal(
    fileLinesText(lines),
    'server.log.2 lines 1–2, server.log.1 empty, server.log.1b lines 3–4, server.log lines 4–5',
  );
  assert.equal(fileLinesText([{ file: 'a.log', firstLine: 7, lines: 1 }]), 'a.log line 7');
});

test('JoinedFiles counts the lines of real files as it reads them, and the parser numbers the same lines', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-joined-lines-'));
  try {
    const older = path.join(dir, 'server.log.1');
    const current = path.join(dir, 'server.log');
    const table = [
      '(APIServer pid=7) INFO 08-21 18:00:10 [stats.py:601] [RequestE2EStats [request_id=r-1]]',
      '(APIServer pid=7) INFO 08-21 18:00:10 [stats.py:601] +------------------+--------+',
    ];
    fs.writeFileSync(older, 'x\n'.repeat(70_000));
    fs.writeFileSync(current, `y\n${table.join('\n')}\n`);
    const joined = new JoinedFiles([older, current]);
    const chunks: Buffer[] = [];
    for await (const chunk of joined.chunks) chunks.push(Buffer.from(chunk));
    const lines = joined.fileLines();
    assert.deepEqual(lines, [
      { file: older, firstLine: 1, lines: 70_000 },
      { file: current, firstLine: 70_001, lines: 3 },
    ]);
    // The parser's problem (a table cut off by the end) is at the joined line the count places in server.log.
    const problem = parseLogText(Buffer.concat(chunks).toString('utf8')).problems[0];
    assert.equal(problem?.line, 70_002);
    assert.deepEqual(placeOfLine(lines ?? [], problem.line), { file: current, line: 2 });
    // One file is one text: nothing to place.
    const one = new JoinedFiles([current]);
    for await (const chunk of one.chunks) assert.ok(chunk.length > 0);
    assert.equal(one.fileLines(), null);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
