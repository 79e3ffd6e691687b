// --since / --until times: read as vLLM prints its log times and placed on the log clock
// (ms of the printed fields as UTC), a time alone on the log's first day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogClock } from '../../server/core/explain/logClock';
import { inClockWindow, parseWindowTime, windowOnClock, windowText } from '../../server/core/explain/timeWindow';

const clock = (year: number, text: string): number => new LogClock(year).toMs(text) as number;

test('a window time is MM-DD HH:MM[:SS] or HH:MM[:SS]; anything else is no time', () => {
  assert.deepEqual(parseWindowTime('10-19 07:12:01'), {
    month: 10,
    date: 19,
    timeOfDayMs: (7 * 3600 + 12 * 60 + 1) * 1000,
  });
  assert.deepEqual(parseWindowTime('07:12'), { month: null, date: null, timeOfDayMs: (7 * 3600 + 12 * 60) * 1000 });
  assert.deepEqual(parseWindowTime(' 23:59:59 '), { month: null, date: null, timeOfDayMs: 86_399_000 });
  for (const bad of [
    '24:00',
    '07:60',
    '07:12:60',
    '13-01 00:00',
    '00-10 00:00',
    '7:12',
    '2026-10-19 07:12',
    'noon',
    '',
  ])
    assert.equal(parseWindowTime(bad), null, bad);
});

test('a time alone is on the day of the log’s first request; until takes the whole printed second', () => {
  const first = clock(2026, '10-19 07:12:00');
  const w = windowOnClock({ since: parseWindowTime('07:12:01'), until: parseWindowTime('07:12:02') }, first);
  assert.equal(w.fromMs, clock(2026, '10-19 07:12:01'));
  assert.equal(w.toMs, clock(2026, '10-19 07:12:02') + 999);
  assert.equal(inClockWindow(w, clock(2026, '10-19 07:12:00')), false);
  assert.equal(inClockWindow(w, clock(2026, '10-19 07:12:02') + 500), true);
  assert.equal(inClockWindow(w, clock(2026, '10-19 07:12:03')), false);
  assert.equal(inClockWindow(w, null), false);
  assert.equal(windowText(w), 'finished 10-19 07:12:01 – 10-19 07:12:02');
});

test('an until earlier in the day than the since is on the next day (a window over midnight)', () => {
  const first = clock(2026, '10-19 23:40:00');
  const w = windowOnClock({ since: parseWindowTime('23:50'), until: parseWindowTime('00:10') }, first);
  assert.equal(w.fromMs, clock(2026, '10-19 23:50:00'));
  assert.equal(w.toMs, clock(2026, '10-20 00:10:00') + 999);
});

test('a date in January of a log that starts in December is in the next year; open ends stay open', () => {
  const first = clock(2026, '12-31 23:59:00');
  const w = windowOnClock({ since: parseWindowTime('01-01 00:00:30'), until: null }, first);
  assert.equal(w.fromMs, Date.UTC(2027, 0, 1, 0, 0, 30));
  assert.equal(w.toMs, Number.POSITIVE_INFINITY);
  assert.equal(windowText(w), 'finished from 01-01 00:00:30');
  assert.equal(windowText({ fromMs: Number.NEGATIVE_INFINITY, toMs: first }), 'finished until 12-31 23:59:00');
});
