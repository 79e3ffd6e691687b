// groupedNumber writes what toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits })
// writes (the reports use it so that a CLI run never loads ICU's number data); a broken print of
// 1e15 ms or more is written with its exponent (formatMs, durationText).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  byteSizeText,
  byteSizesText,
  durationText,
  groupedNumber,
  shortestNumberText,
} from '../../server/core/numberText';
import { gzipDamageText, partialLogMark } from '../../server/core/gzipInput';
import { formatMs } from '../../server/core/textTable';

const FRACTIONS = [
  [0, 0],
  [0, 1],
  [0, 3],
  [1, 1],
  [2, 2],
  [3, 3],
] as const;

function same(v: number): void {
  for (const [min, max] of FRACTIONS) {
    assert.equal(
      groupedNumber(v, min, max),
      v.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max }),
      `${v} (${min}, ${max})`,
    );
  }
}

test('edge values: signs, ties, carries, exponents, infinities', () => {
  for (const v of [
    0,
    -0,
    1,
    -1,
    0.5,
    1.5,
    2.5,
    -2.5,
    1.0005,
    1.005,
    4.35,
    9.9995,
    999.9995,
    99999.5,
    0.0005,
    0.00049999,
    -0.0001,
    0.9995,
    1e21,
    1.5e-7,
    123e-20,
    5e-324,
    Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER,
    123456789.125,
    -1234.5,
    1234567.8901,
    Infinity,
    -Infinity,
    NaN,
  ])
    same(v);
});

test('seeded random values of every magnitude and 3-decimal log values', () => {
  let seed = 20261201;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 3_000; i++) {
    same((rnd() - 0.3) * 10 ** Math.floor(rnd() * 30 - 12));
    same((Math.round(rnd() * 1e9) / 1000) * (rnd() < 0.2 ? -1 : 1));
    same(Math.round(rnd() * 1e6) / 2000);
  }
});

test('shortestNumberText is String(v) for every double: log values, 15-16 digit edges, signs, non-finite', () => {
  const same = (v: number): void => assert.equal(shortestNumberText(v), String(v), `for ${String(v)}`);
  for (const v of [
    0, -0, 1, -1, 0.001, -0.001, 0.0005, 0.1, 0.12, 0.123, 0.1234, 18.844, 18.84, 18.8, 1000.5, 999999999999.999,
  ])
    same(v);
  for (const v of [
    999999999999.999,
    1e12 - 0.001,
    1e15,
    1e15 - 1,
    9007199254740991 / 1000,
    9007199254740991,
    1e21,
    1.5e-7,
  ])
    same(v);
  // 16 digits: the shortest form can be shorter than the 3-decimal one (8951597507288.94, not 8951597507288.939).
  for (const v of [8951597507288.94, 8832310687330.22, -8893971636039.12]) same(v);
  for (const v of [Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, Infinity, -Infinity, NaN]) same(v);
  let seed = 20261202;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 20_000; i++) {
    same((Math.round(rnd() * 10 ** Math.floor(rnd() * 16)) / 1000) * (rnd() < 0.2 ? -1 : 1));
    same((rnd() - 0.3) * 10 ** Math.floor(rnd() * 40 - 20));
    same(Math.round(rnd() * 1e7) / 10 ** Math.floor(rnd() * 5));
  }
});

test('a duration of 1e15 ms or more (a broken print) is written with its exponent, in tables and in words', () => {
  assert.equal(formatMs(1e308), '1.000e+308');
  assert.equal(formatMs(-1.7976931348623157e308), '-1.798e+308');
  assert.equal(formatMs(1.2345678901234568e29), '1.235e+29');
  assert.equal(formatMs(1e15), '1.000e+15');
  // Below it, grouped digits as before.
  assert.equal(formatMs(999_999_999_999_999), '999,999,999,999,999');
  assert.equal(formatMs(30283.198), '30,283');
  assert.equal(formatMs(Number.NEGATIVE_INFINITY), '-∞');
  assert.equal(durationText(1e308), '1.000e+308 ms');
  assert.equal(durationText(-2.5e20), '-2.500e+20 ms');
  assert.equal(durationText(7_200_000), '2 h');
  assert.equal(durationText(130_158), '2 min 10 s');
});

test('a size in bytes: bytes below 1 KB, one decimal below 10 of a unit, the unit chosen on the rounded value', () => {
  assert.equal(byteSizeText(0), '0 bytes');
  assert.equal(byteSizeText(1), '1 byte');
  assert.equal(byteSizeText(812), '812 bytes');
  assert.equal(byteSizeText(1023), '1,023 bytes');
  assert.equal(byteSizeText(1024), '1.0 KB');
  assert.equal(byteSizeText(14_336), '14 KB');
  assert.equal(byteSizeText(10_188), '9.9 KB');
  assert.equal(byteSizeText(10_200), '10 KB');
  assert.equal(byteSizeText(1_048_000), '1,023 KB');
  assert.equal(byteSizeText(1_048_500), '1.0 MB');
  assert.equal(byteSizeText(3_355_443), '3.2 MB');
  assert.equal(byteSizeText(150 * 1024 * 1024), '150 MB');
  assert.equal(byteSizeText(2 * 1024 ** 3), '2.0 GB');
});

test('part of a size: in the unit of the whole, each by the same rule', () => {
  assert.equal(byteSizesText(0, 30_720), '0.0 of 30 KB');
  assert.equal(byteSizesText(10_200, 30_720), '10 of 30 KB');
  assert.equal(byteSizesText(1_000, 1_048_500), '0.0 of 1.0 MB');
  assert.equal(byteSizesText(1_023, 1_023), '1,023 of 1,023 bytes');
  assert.equal(byteSizesText(0, 1), '0 of 1 byte');
  assert.equal(byteSizesText(null, 3_355_443), byteSizeText(3_355_443));
});

test('where gzip data broke off is said in the unit that fits it: "14 KB", not "0.014 MB"', () => {
  assert.equal(
    gzipDamageText(14_336, 'unexpected end of file'),
    'the gzip data ends after 14 KB of log: unexpected end of file',
  );
  assert.equal(
    gzipDamageText(0, 'unexpected end of file'),
    'the gzip data ends after 0 bytes of log: unexpected end of file',
  );
  assert.equal(
    gzipDamageText(3_355_443, 'incorrect header check'),
    'the gzip data breaks after 3.2 MB of log: incorrect header check',
  );
  assert.equal(partialLogMark(101_470), 'partial: gzip data cut after 99 KB');
});
