// The log clock (timestamps as ms, the year followed over New Year) and the sorted times the
// in-flight counts are read from, each against a plain computation of the same thing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogClock } from '../../server/core/explain/logClock';
import { SortedTimes } from '../../server/core/explain/sortedTimes';
import { mulberry32 } from '../../server/simulate/seededRandom';

const pad = (n: number): string => String(n).padStart(2, '0');

test('LogClock gives Date.UTC of the printed fields, out-of-range fields rolled over as Date.UTC does', () => {
  const clock = new LogClock(2026);
  const cases: [string, number][] = [
    ['03-14 09:26:53', Date.UTC(2026, 2, 14, 9, 26, 53)],
    ['03-14 09:26:53', Date.UTC(2026, 2, 14, 9, 26, 53)],
    ['03-14 23:59:59', Date.UTC(2026, 2, 14, 23, 59, 59)],
    ['03-15 00:00:00', Date.UTC(2026, 2, 15, 0, 0, 0)],
    // Not a calendar time, but digits in the right places: what Date.UTC makes of them.
    ['02-30 25:61:61', Date.UTC(2026, 1, 30, 25, 61, 61)],
    ['03-14 09:26:54', Date.UTC(2026, 2, 14, 9, 26, 54)],
  ];
  for (const [text, ms] of cases) assert.equal(clock.toMs(text), ms, text);
  assert.equal(clock.midpoint('03-14 09:26:53'), Date.UTC(2026, 2, 14, 9, 26, 53) + 500);
  for (const bad of ['3-14 09:26:53', '03-14 09:26:53 ', '03-14T09:26:53', '', 'ab-cd ef:gh:ij'])
    assert.equal(clock.toMs(bad), null, bad);
  assert.equal(clock.toMs(null), null);
});

test('LogClock follows a log over New Year; a late line from the old year stays in it; the same text read again keeps its year', () => {
  const clock = new LogClock(2026);
  assert.equal(clock.toMs('12-31 23:59:58'), Date.UTC(2026, 11, 31, 23, 59, 58));
  assert.equal(clock.toMs('01-01 00:00:01'), Date.UTC(2027, 0, 1, 0, 0, 1));
  assert.equal(clock.toMs('01-01 00:00:01'), Date.UTC(2027, 0, 1, 0, 0, 1));
  // A line printed a moment late from before New Year (another process's) stays in the old year, and moves nothing.
  assert.equal(clock.toMs('12-31 23:59:59'), Date.UTC(2026, 11, 31, 23, 59, 59));
  assert.equal(clock.toMs('12-31 23:59:59'), Date.UTC(2026, 11, 31, 23, 59, 59));
  assert.equal(clock.toMs('01-01 00:00:02'), Date.UTC(2027, 0, 1, 0, 0, 2));
  assert.equal(clock.toMs('06-15 12:00:00'), Date.UTC(2027, 5, 15, 12, 0, 0));
});

test('LogClock over a random walk of timestamps across New Year gives back the real time of each', () => {
  const rand = mulberry32(7);
  const clock = new LogClock(2025);
  let t = Date.UTC(2025, 10, 1);
  let crossed = 0;
  for (let i = 0; i < 5000; i++) {
    // Mostly forward by seconds to hours, sometimes a second back (a late line), sometimes the same second.
    const r = rand();
    const before = new Date(t).getUTCFullYear();
    t += r < 0.1 ? -1000 : r < 0.3 ? 0 : Math.floor(rand() * 4 * 3600) * 1000;
    if (new Date(t).getUTCFullYear() !== before) crossed++;
    const d = new Date(t);
    const text = `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    assert.equal(clock.toMs(text), t, `${i}: ${text}`);
  }
  assert.ok(crossed >= 1, 'the walk crosses New Year');
});

test('SortedTimes counts right when every added time is queried at once (in order, out of order, equal)', () => {
  const rand = mulberry32(11);
  for (const order of ['ascending', 'random', 'descending', 'ties'] as const) {
    const times = new SortedTimes();
    const all: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const v =
        order === 'ascending'
          ? i + rand()
          : order === 'descending'
            ? 3000 - i
            : order === 'ties'
              ? i % 7
              : rand() * 100;
      times.add(v);
      all.push(v);
      const q = order === 'ties' ? i % 9 : rand() * (order === 'random' ? 100 : 3000);
      assert.equal(times.countAtMost(q), all.filter((x) => x <= q).length, `${order} ${i}`);
    }
    assert.equal(times.count, 3000);
  }
});
