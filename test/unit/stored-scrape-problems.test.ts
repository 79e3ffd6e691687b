// scrape-problems.json read back, and the ledger that lists an endpoint's malformed lines taking
// it back: a reopened session lists what its capture listed, a scrape that repeats a stored line
// adds nothing, a list stored full stays full; a file of another shape (a torn write, a hand
// edit) gives only its well-formed entries, never a throw. Real files, real scrape bodies.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import { scrapeProblemsOf } from '../../server/core/metricsText/scrapeSummary';
import { MAX_LISTED_SCRAPE_PROBLEMS, ScrapeProblemLedger } from '../../server/capture/scrapeProblemLedger';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { scrapeProblemsFromJson } from '../../server/capture/storage/storedScrapeProblems';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-stored-scrape-problems-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const BODY = '# TYPE x counter\nx_total 1\nthis is not a metric line {\nvllm:bogus{stage="0" 1\n';

test("an endpoint's listed problems come back from the session folder as they were, and are not listed again", () => {
  const problems = scrapeProblemsOf(parseExposition(BODY));
  assert.deepEqual(
    problems.map((p) => p.line),
    [3, 4],
  );
  const ledger = new ScrapeProblemLedger();
  assert.deepEqual(ledger.fresh(problems), problems);
  const files = SessionFiles.atFolder(path.join(dir, 'one'));
  fs.mkdirSync(files.dir, { recursive: true });
  assert.equal(files.lastScrapeProblems(), null);
  files.saveScrapeProblems(ledger.listed);
  const back = files.lastScrapeProblems();
  assert.deepEqual(back, problems);

  const reopened = new ScrapeProblemLedger();
  reopened.restore(back ?? []);
  assert.deepEqual(reopened.listed, problems);
  // The same body scraped again after the reopen: nothing new; a new line: that one only.
  assert.deepEqual(reopened.fresh(problems), []);
  const more = scrapeProblemsOf(parseExposition(`${BODY}vllm:other{ 2\n`));
  assert.deepEqual(reopened.fresh(more), [more[2]]);
});

test('a list stored full stays full: no line after it is listed', () => {
  const ledger = new ScrapeProblemLedger();
  const bad = Array.from({ length: MAX_LISTED_SCRAPE_PROBLEMS + 5 }, (_, i) => ({ line: i + 1, message: `bad ${i}` }));
  const listed = ledger.fresh(bad);
  assert.equal(listed.length, MAX_LISTED_SCRAPE_PROBLEMS + 1);
  const reopened = new ScrapeProblemLedger();
  reopened.restore(scrapeProblemsFromJson(JSON.parse(JSON.stringify(listed))));
  assert.deepEqual(reopened.fresh([{ line: 999, message: 'another' }]), []);
  assert.equal(reopened.listed.length, MAX_LISTED_SCRAPE_PROBLEMS + 1);
});

test('a scrape-problems.json of another shape gives its well-formed entries only', () => {
  assert.deepEqual(scrapeProblemsFromJson(null), []);
  assert.deepEqual(scrapeProblemsFromJson({ line: 1, message: 'x' }), []);
  assert.deepEqual(
    scrapeProblemsFromJson([
      { line: 3, message: 'metrics: invalid sample value "is"' },
      { line: 0, message: 'no line 0' },
      { line: 2.5, message: 'no half line' },
      { line: 4 },
      [5, 'an array'],
      null,
      { line: 6, message: 'metrics: kept', extra: true },
    ]),
    [
      { line: 3, message: 'metrics: invalid sample value "is"' },
      { line: 6, message: 'metrics: kept' },
    ],
  );
  // A torn write reads as none stored.
  const files = SessionFiles.atFolder(path.join(dir, 'torn'));
  fs.mkdirSync(files.dir, { recursive: true });
  fs.writeFileSync(path.join(files.dir, 'scrape-problems.json'), '[{"line": 3, "mess');
  assert.equal(files.lastScrapeProblems(), null);
});
