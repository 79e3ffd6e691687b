// The linearity check that the parser and deploy tests lean on: it passes linear work and
// fails quadratic work, on this machine as it is (its retries must not let a quadratic pass).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertLinear } from './support/linearity';

/** Keeps the loops' result alive, so V8 cannot drop the work. */
let sink = 0;

test('linear work passes, with a ratio near 4', () => {
  const growth = assertLinear(
    'a sum',
    (n) => Float64Array.from({ length: n }, (_, i) => i),
    (values) => {
      let s = 0;
      for (let i = 0; i < values.length; i++) s += values[i] as number;
      sink += s;
    },
    { start: 1024, targetMs: 4, maxN: 8_000_000 },
  );
  assert.ok(growth.ratio < 9, JSON.stringify(growth));
});

test('quadratic work fails, naming what was measured', () => {
  assert.throws(
    () =>
      assertLinear(
        'every pair',
        (n) => Float64Array.from({ length: n }, (_, i) => i),
        (values) => {
          let s = 0;
          for (let i = 0; i < values.length; i++)
            for (let j = 0; j < values.length; j++) s += (values[i] as number) * (values[j] as number);
          sink += s;
        },
        { start: 64, targetMs: 4, maxN: 100_000 },
      ),
    /every pair: not linear: .* at 4n \(x\d+\.\d; linear is ~4\)/,
  );
  assert.ok(Number.isFinite(sink));
});
