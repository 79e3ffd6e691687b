// groupedNumber writes what toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits })
// writes (the reports use it so that a CLI run never loads ICU's number data).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupedNumber } from '../../server/core/numberText';

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
