// Every limit of the log prefix's grammar (prefixLimits.ts), held against every reader of
// the prefix: at the limit accepted by all, one over refused by all. The readers: the
// scanner (a prefix at the start of a line), the regular-expression search (a prefix
// anywhere, at the start and after other output), the prefix templates (bytes compared
// with a shape learned before), the reference expressions of CI timestamps and Python's
// default format with their hand readers, and the whole parser, fed the same text as a
// string and as bytes (the byte paths: templates and the raw-prefix matcher).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CI_STAMP,
  PYTHON_DEFAULT,
  pythonDefaultPrefix,
  scanPrefix,
  searchPrefix,
  stampEndOf,
} from '../../server/core/log/prefix';
import {
  MAX_CALL_SITE_LINE_DIGITS,
  MAX_CALL_SITE_PATH,
  MAX_CI_FRACTION_DIGITS,
  MAX_LOGGER_NAME,
  MAX_PROCESS_NAME,
  MAX_STAGE_DIGITS,
} from '../../server/core/log/prefixLimits';
import { PrefixTemplates } from '../../server/core/log/prefixTemplates';
import type { LogHeader } from '../../server/core/records';
import { ofKind, parseBytes, parseChunks, utf8 } from './support/logHelpers';

const HEAD = '(APIServer pid=7) INFO 08-21 18:00:00 ';
const TIMING = '[OmniTiming] req=r total=1.00s engine=1.00s stages=[0:1.00s]';
/** Other output a record start may be glued to (a tqdm bar without its newline). */
const GLUE = 'Processed prompts: 100%|####| ';

const path = (n: number): string => 'a'.repeat(n - 3) + '.py';
const digits = (n: number): string => '1'.repeat(n);

/** The [OmniTiming] records of `text`, the same read from a string and from bytes (one chunk). */
function timings(text: string): Array<LogHeader | null> {
  const fromString = parseChunks([text]);
  assert.deepEqual(parseBytes(utf8(text)), fromString, 'bytes read as the string');
  return ofKind(fromString, 'omniTiming').map((r) => r.header);
}

/** The prefix the templates read from `line` once they learned the shape of `learnFrom`. */
function templateRead(learnFrom: string, line: string): ReturnType<PrefixTemplates['read']> {
  const templates = new PrefixTemplates();
  const scanned = scanPrefix(learnFrom);
  assert.ok(scanned !== null, learnFrom);
  const { headerStart: _h, messageStart: _m, timestampStart: _t, ...header } = scanned;
  templates.learn(learnFrom, scanned, header);
  const bytes = Buffer.from(`${line}\n`, 'latin1');
  return templates.read(
    bytes.toString('latin1'),
    new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    0,
    line.length,
  );
}

test(`call-site path: ${MAX_CALL_SITE_PATH} characters read by every reader, ${MAX_CALL_SITE_PATH + 1} by none`, () => {
  const at = `${HEAD}[${path(MAX_CALL_SITE_PATH)}:12] ${TIMING}`;
  const over = `${HEAD}[${path(MAX_CALL_SITE_PATH + 1)}:12] ${TIMING}`;
  assert.equal(scanPrefix(at)?.file, path(MAX_CALL_SITE_PATH));
  assert.equal(searchPrefix(at)?.file, path(MAX_CALL_SITE_PATH));
  assert.equal(searchPrefix(GLUE + at)?.file, path(MAX_CALL_SITE_PATH));
  assert.deepEqual(templateRead(at, at), scanPrefix(at));
  assert.equal(timings(`${at}\n${at}\n`)[1]?.file, path(MAX_CALL_SITE_PATH));

  assert.equal(scanPrefix(over), null);
  assert.equal(searchPrefix(over), null);
  assert.equal(searchPrefix(GLUE + over), null);
  assert.deepEqual(timings(`${over}\n${GLUE}${over}\n`), []);
});

test(`call-site line number: ${MAX_CALL_SITE_LINE_DIGITS} digits read by every reader, ${MAX_CALL_SITE_LINE_DIGITS + 1} by none`, () => {
  const learned = `${HEAD}[stats.py:1] ${TIMING}`;
  const at = `${HEAD}[stats.py:${digits(MAX_CALL_SITE_LINE_DIGITS)}] ${TIMING}`;
  const over = `${HEAD}[stats.py:${digits(MAX_CALL_SITE_LINE_DIGITS + 1)}] ${TIMING}`;
  const line = Number(digits(MAX_CALL_SITE_LINE_DIGITS));
  assert.equal(scanPrefix(at)?.fileLine, line);
  assert.equal(searchPrefix(at)?.fileLine, line);
  assert.equal(searchPrefix(GLUE + at)?.fileLine, line);
  assert.deepEqual(templateRead(learned, at), scanPrefix(at));
  assert.deepEqual(
    timings(`${learned}\n${at}\n`).map((h) => h?.fileLine),
    [1, line],
  );

  assert.equal(scanPrefix(over), null);
  assert.equal(searchPrefix(over), null);
  assert.equal(searchPrefix(GLUE + over), null);
  assert.equal(templateRead(learned, over), null);
  assert.deepEqual(
    timings(`${learned}\n${over}\n`).map((h) => h?.fileLine),
    [1],
  );
});

test(`process name: ${MAX_PROCESS_NAME} characters read by every reader, ${MAX_PROCESS_NAME + 1} by none`, () => {
  const name = (n: number): string => 'P' + 'p'.repeat(n - 1);
  const at = `(${name(MAX_PROCESS_NAME)}) INFO 08-21 18:00:00 [stats.py:12] ${TIMING}`;
  const over = `(${name(MAX_PROCESS_NAME + 1)}) INFO 08-21 18:00:00 [stats.py:12] ${TIMING}`;
  assert.equal(scanPrefix(at)?.process, name(MAX_PROCESS_NAME));
  assert.equal(searchPrefix(at)?.process, name(MAX_PROCESS_NAME));
  assert.equal(searchPrefix(GLUE + at)?.process, name(MAX_PROCESS_NAME));
  assert.deepEqual(templateRead(at, at), scanPrefix(at));
  assert.deepEqual(
    timings(`${at}\n${at}\n`).map((h) => h?.process),
    [name(MAX_PROCESS_NAME), name(MAX_PROCESS_NAME)],
  );

  // One over: no reader takes the parenthesis as the process; the search still reads the
  // rest of the prefix, with other output before it.
  assert.equal(scanPrefix(over), null);
  assert.equal(searchPrefix(over)?.process, null);
  assert.equal(searchPrefix(over)?.headerStart, MAX_PROCESS_NAME + 4);
  assert.equal(searchPrefix(GLUE + over)?.process, null);
  assert.deepEqual(
    timings(`${over}\n${over}\n`).map((h) => h?.process),
    [null, null],
  );
});

test(`stage prefix: ${MAX_STAGE_DIGITS} digits read by every reader, ${MAX_STAGE_DIGITS + 1} by none`, () => {
  const at = `(API (0)) [Stage-${digits(MAX_STAGE_DIGITS)}] INFO 08-21 18:00:00 [stats.py:12] ${TIMING}`;
  const over = `(API (0)) [Stage-${digits(MAX_STAGE_DIGITS + 1)}] INFO 08-21 18:00:00 [stats.py:12] ${TIMING}`;
  const stage = Number(digits(MAX_STAGE_DIGITS));
  assert.equal(scanPrefix(at)?.stagePrefix, stage);
  assert.equal(searchPrefix(at)?.stagePrefix, stage);
  assert.equal(searchPrefix(at)?.process, 'API (0)');
  assert.equal(searchPrefix(GLUE + at)?.stagePrefix, stage);
  assert.deepEqual(templateRead(at, at), scanPrefix(at));
  assert.deepEqual(
    timings(`${at}\n${at}\n`).map((h) => h?.stagePrefix),
    [stage, stage],
  );

  assert.equal(scanPrefix(over), null);
  assert.equal(searchPrefix(over)?.stagePrefix, null);
  assert.equal(searchPrefix(over)?.process, null);
  assert.equal(searchPrefix(GLUE + over)?.stagePrefix, null);
  assert.deepEqual(
    timings(`${over}\n${over}\n`).map((h) => h?.stagePrefix),
    [null, null],
  );
});

test(`CI timestamp: a fraction of ${MAX_CI_FRACTION_DIGITS} digits read by every reader, ${MAX_CI_FRACTION_DIGITS + 1} by none`, () => {
  for (const [open, close] of [
    ['[', ']'],
    ['', ''],
  ] as const) {
    const stamp = (n: number): string => `${open}2026-01-22T14:19:11.${digits(n)}Z${close} `;
    const at = `${stamp(MAX_CI_FRACTION_DIGITS)}${HEAD}[stats.py:12] ${TIMING}`;
    const over = `${stamp(MAX_CI_FRACTION_DIGITS + 1)}${HEAD}[stats.py:12] ${TIMING}`;
    assert.equal(stampEndOf(at), stamp(MAX_CI_FRACTION_DIGITS).length, at);
    assert.equal(CI_STAMP.exec(at)?.[0].length, stamp(MAX_CI_FRACTION_DIGITS).length);
    assert.equal(scanPrefix(at)?.headerStart, stamp(MAX_CI_FRACTION_DIGITS).length);
    assert.equal(
      pythonDefaultPrefix(`${stamp(MAX_CI_FRACTION_DIGITS)}INFO:vllm_omni.metrics:${TIMING}`)?.headerStart,
      stamp(MAX_CI_FRACTION_DIGITS).length,
    );
    assert.deepEqual(
      timings(`${at}\n`).map((h) => h?.file),
      ['stats.py'],
    );

    assert.equal(stampEndOf(over), 0, over);
    assert.equal(CI_STAMP.exec(over), null);
    assert.equal(scanPrefix(over), null);
    assert.equal(pythonDefaultPrefix(`${stamp(MAX_CI_FRACTION_DIGITS + 1)}INFO:vllm_omni.metrics:${TIMING}`), null);
    // Not a stamp: other output before the prefix, which the search still finds.
    assert.equal(searchPrefix(over)?.headerStart, stamp(MAX_CI_FRACTION_DIGITS + 1).length);
  }
});

test(`Python's default format: a logger name of ${MAX_LOGGER_NAME} characters read by every reader, ${MAX_LOGGER_NAME + 1} by none`, () => {
  const logger = (n: number): string => 'v' + 'a.'.repeat(n).slice(0, n - 2) + 'x';
  assert.equal(logger(MAX_LOGGER_NAME).length, MAX_LOGGER_NAME);
  const at = `INFO:${logger(MAX_LOGGER_NAME)}:${TIMING}`;
  const over = `INFO:${logger(MAX_LOGGER_NAME + 1)}:${TIMING}`;
  assert.equal(pythonDefaultPrefix(at)?.logger, logger(MAX_LOGGER_NAME));
  assert.equal(PYTHON_DEFAULT.exec(at)?.[2], logger(MAX_LOGGER_NAME));
  assert.deepEqual(timings(`${at}\n`), [null]);

  assert.equal(pythonDefaultPrefix(over), null);
  assert.equal(PYTHON_DEFAULT.exec(over), null);
  assert.deepEqual(timings(`${over}\n`), []);
});

test('call-site path: every UTF-16 code unit inside a path is taken or refused by the scanner as by the search (`[^\\]\\s]`)', () => {
  let refused = 0;
  for (let code = 0; code < 0x10000; code++) {
    if (code === 10 || code === 13) continue; // never inside a line
    const line = `${HEAD}[a${String.fromCharCode(code)}b.py:12] m`;
    const search = searchPrefix(line);
    const scanned = scanPrefix(line);
    if (scanned === null) {
      refused++;
      assert.ok(search === null || search.file !== `a${String.fromCharCode(code)}b.py`, `U+${code.toString(16)}`);
    } else {
      const { timestampStart: _t, ...read } = scanned;
      assert.deepEqual(read, search, `U+${code.toString(16)}`);
    }
  }
  // `]`, and what `\s` matches: tab, vertical tab, form feed, space, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
  assert.equal(refused, 1 + 4 + 1 + 1 + 11 + 2 + 1 + 1 + 1 + 1);
});
