// `stage-lens analyze` and `explain` as child processes on a /metrics scrape cut short inside a
// family (test/integration/support/cutScrape.ts): what is left of that family reads 0, but it is
// no evidence of a family stuck at 0, so no metric-not-reporting; the cut is said instead, a
// truncated text by input-cut-short and a .prom.gz whose stream ends by input-gzip-damaged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cutInsideLine, cutLine, gzipCutAtLineFeed, tokensBody } from './support/cutScrape';
import { tempFolder } from './support/tempFolder';

const dir = tempFolder('stage-lens-scrape-cut-');

interface Json {
  findings: { code: string; severity: string; message: string }[];
  preemptions: { stage: string | null; replica: string | null; count: number }[] | null;
}

function analyzed(args: string[], input?: string): Json {
  const run = runCli(['analyze', ...args, '--format', 'json'], input === undefined ? {} : { input });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Json;
}

const PREEMPTIONS = [
  { stage: '0', replica: '0', count: 4 },
  { stage: '1', replica: '0', count: 0 },
  { stage: '1', replica: '1', count: 0 },
];

test('a scrape text cut inside a family: no metric-not-reporting for it, the cut said instead (file and stdin)', () => {
  const body = tokensBody();
  const whole = path.join(dir, 'whole.prom');
  fs.writeFileSync(whole, body);
  assert.deepEqual(analyzed([whole]).findings, [], 'whole, the family reports (stage 1 counts tokens)');
  const cut = path.join(dir, 'cut.prom');
  fs.writeFileSync(cut, cutInsideLine(body));
  const line = cutLine(body);
  assert.equal(line, 26);
  const want = {
    code: 'input-cut-short',
    severity: 'warning',
    stageId: null,
    requestIds: [],
    requestCount: 0,
    message: `The /metrics scrape ends inside its line 26, with no line feed after it (a file or body cut short): the series before it are read; the rest of the scrape is not.`,
  };
  const json = analyzed([cut]);
  assert.deepEqual(json.findings, [want]);
  // What came before the cut is read: the preemption counters are there, as whole.
  assert.deepEqual(json.preemptions, PREEMPTIONS);
  assert.deepEqual(analyzed(['-'], cutInsideLine(body)).findings, [want]);
  const table = runCli(['analyze', cut]);
  assert.equal(table.status, 0, table.stderr);
  assert.ok(table.stdout.includes(`  [warning] input-cut-short: ${want.message}\n`), table.stdout);
  assert.doesNotMatch(table.stdout, /metric-not-reporting/);
  const explained = runCli(['explain', cut]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.match(explained.stdout, /^No metric that is registered but does not report was found\.$/m);
  assert.ok(
    explained.stdout.includes(
      '\nNot checked: whether vllm:generation_tokens_total reports, as the scrape is cut inside vllm:generation_tokens_total, so its series after the cut are not read.\n',
    ),
    explained.stdout,
  );
  assert.ok(explained.stdout.endsWith(`\n\n${want.message}\n`), explained.stdout);
});

test('a .prom.gz whose stream ends inside a family: no metric-not-reporting for it, the gzip finding says the cut', () => {
  const body = tokensBody();
  const gz = path.join(dir, 'cut.prom.gz');
  fs.writeFileSync(gz, gzipCutAtLineFeed(body));
  const json = analyzed([gz]);
  assert.deepEqual(
    json.findings.map((f) => f.code),
    ['input-gzip-damaged'],
  );
  assert.match(
    json.findings[0]?.message ?? '',
    /of the \/metrics scrape: unexpected end of file .*the series before it are read;/,
  );
  assert.deepEqual(json.preemptions, PREEMPTIONS);
  // The same text read as a whole file ends at a line feed: nothing says it was cut, so the 0 it holds is a finding.
  const text = path.join(dir, 'same-text.prom');
  fs.writeFileSync(
    text,
    body.slice(
      0,
      body.indexOf('vllm:generation_tokens_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1"'),
    ),
  );
  assert.deepEqual(
    analyzed([text]).findings.map((f) => f.code),
    ['metric-not-reporting'],
  );
});
