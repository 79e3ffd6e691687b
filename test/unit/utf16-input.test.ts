// A log saved as UTF-16 (PowerShell 5's `>` writes UTF-16LE with a byte-order mark) reads as
// the same records as the UTF-8 log, in one piece or byte by byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { utf16EncodingOf } from '../../server/core/log/utf16Input';
import { FIXTURES, parseBytes, parseChunks, utf8 } from './support/logHelpers';

const LOG = fs.readFileSync(
  path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
  'utf8',
);

function utf16le(text: string, bom: boolean): Uint8Array {
  const body = Buffer.from(text, 'utf16le');
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

function utf16be(text: string): Uint8Array {
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.alloc(le.length);
  for (let i = 0; i + 1 < le.length; i += 2) {
    be[i] = le[i + 1] as number;
    be[i + 1] = le[i] as number;
  }
  return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
}

/** One byte per chunk: every split of a character, of the byte-order mark and of the first bytes. */
function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

test('the encoding told from the first bytes', () => {
  assert.equal(utf16EncodingOf([0xff, 0xfe]), 'utf-16le');
  assert.equal(utf16EncodingOf([0xfe, 0xff]), 'utf-16be');
  assert.equal(utf16EncodingOf(utf16le('(API', false)), 'utf-16le');
  assert.equal(utf16EncodingOf([0, 0x28, 0, 0x41]), 'utf-16be');
  // UTF-8 text, the NUL hole of a copytruncate rotation, too few bytes: not UTF-16.
  assert.equal(utf16EncodingOf(utf8('(API')), null);
  assert.equal(utf16EncodingOf([0, 0, 0, 0]), null);
  assert.equal(utf16EncodingOf([0x28, 0]), null);
  // A mark before UTF-8 text (no NUL after it): invalid bytes in a UTF-8 log, not UTF-16.
  assert.equal(utf16EncodingOf([0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28]), null);
  assert.equal(utf16EncodingOf([0xff, 0xfe, 0x28, 0x41, 0x50, 0x49]), null);
  assert.equal(utf16EncodingOf([0xfe, 0xff, 0x28, 0x41, 0x50, 0x49]), null);
});

test('UTF-16 logs give the records of the UTF-8 log', () => {
  const expected = parseBytes(utf8(LOG));
  assert.equal(expected.records.filter((r) => r.kind === 'stageTable').length, 6);
  const crlf = LOG.replaceAll('\n', '\r\n');
  for (const [name, bytes] of [
    ['UTF-16LE with a byte-order mark, CRLF', utf16le(crlf, true)],
    ['UTF-16LE without one', utf16le(LOG, false)],
    ['UTF-16BE with one', utf16be(LOG)],
  ] as const) {
    for (const [how, out] of [
      ['whole', parseBytes(bytes)],
      ['byte by byte', parseChunks(byteByByte(bytes))],
    ] as const) {
      assert.deepEqual(out.problems, expected.problems, `${name}, ${how}`);
      assert.deepEqual(out.records, expected.records, `${name}, ${how}`);
    }
  }
});
