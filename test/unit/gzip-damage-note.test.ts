// A gzip input that broke off: the sentences the CLI and the findings say of it are built from
// its parts (the bytes before the break, zlib's word for it, whether a log or a scrape).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gzipDamageNote,
  gzipDamageProblem,
  gzipDamageText,
  scrapeGzipDamagedFinding,
  type GzipDamageProblem,
} from '../../server/core/gzipInput';

test('the stderr note of a cut log and of a cut scrape: the same break, each of its own input', () => {
  const damage = gzipDamageProblem(24_576, 'unexpected end of file');
  assert.equal(
    gzipDamageNote(damage, 'log', 'server.log.1.gz'),
    'the gzip data ends after 24 KB of log: unexpected end of file; the report covers the log before it, the rest of server.log.1.gz was not read',
  );
  assert.equal(
    gzipDamageNote(damage, 'scrape', 'metrics.prom.gz'),
    'the gzip data ends after 24 KB of the /metrics scrape: unexpected end of file; the report covers the series before it, the rest of metrics.prom.gz was not read',
  );
  // Damaged within, not cut short: "breaks after".
  assert.equal(
    gzipDamageNote(gzipDamageProblem(3_355_443, 'incorrect data check'), 'scrape', 'stdin'),
    'the gzip data breaks after 3.2 MB of the /metrics scrape: incorrect data check; the report covers the series before it, the rest of stdin was not read',
  );
});

test("the note is made of the damage's parts, not by rewording its log sentence", () => {
  // zlib's own words may hold the log sentence's words; only the input's noun changes.
  const odd = gzipDamageProblem(0, 'invalid block type of log: x');
  assert.equal(
    gzipDamageNote(odd, 'scrape', 'm.gz'),
    'the gzip data breaks after 0 bytes of the /metrics scrape: invalid block type of log: x; the report covers the series before it, the rest of m.gz was not read',
  );
  // A problem whose sentence was set for a report (sentence-cased) still gives the note's own sentence.
  const placed: GzipDamageProblem = { ...odd, line: 12, message: `T${odd.message.slice(1)}` };
  assert.equal(gzipDamageNote(placed, 'scrape', 'm.gz'), gzipDamageNote(odd, 'scrape', 'm.gz'));
  assert.equal(gzipDamageNote(placed, 'log', 'm.gz').startsWith('the gzip data breaks after 0 bytes of log: '), true);
});

test("a scrape's finding says its series before the break are read: a warning, never the log's 'no request came before it'", () => {
  const finding = scrapeGzipDamagedFinding(gzipDamageProblem(14_336, 'unexpected end of file'));
  assert.deepEqual(finding, {
    code: 'input-gzip-damaged',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message:
      'The gzip data ends after 14 KB of the /metrics scrape: unexpected end of file (a .gz file cut short, or damaged): the series before it are read; the rest of the file is not. `gzip -t` tests the file; `zcat` prints what it can of it.',
  });
  assert.equal(
    gzipDamageText(14_336, 'unexpected end of file', 'scrape'),
    'the gzip data ends after 14 KB of the /metrics scrape: unexpected end of file',
  );
});
