// analyze and explain of a /metrics scrape given --since/--until or --boot, run as the built
// dist/cli.js in a child process: a scrape is one moment's counters, with no requests, times or
// boots to select, so both commands print nothing, say so in the same words on stderr, and exit 2
// (a usage problem), whatever the format, from a file or from stdin. A CSV or a trace of a scrape
// has no row to hold: stderr says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRAPE = path.join(ROOT, 'test', 'fixtures', 'scrapes', 'qwen3-tts-one-output.prom');
const MOMENT = "(its counters are one moment's, of every request since the server started)";

const WINDOW = (source: string, command: string): string =>
  `stage-lens ${command}: ${source} is a /metrics scrape, which has no requests and no times ${MOMENT}; ` +
  `--since/--until select a log's requests by the time they finished: run ${command} without them\n`;
const BOOT = (source: string, command: string): string =>
  `stage-lens ${command}: ${source} is a /metrics scrape, which has no server boots ${MOMENT}; ` +
  `--boot selects a log's requests by their server boot: run ${command} without it\n`;
const BOTH = (source: string, command: string): string =>
  `stage-lens ${command}: ${source} is a /metrics scrape, which has no requests, times or server boots ${MOMENT}; ` +
  `--since/--until and --boot select a log's requests by the time they finished and by their server boot: run ${command} without them\n`;

/** `stage-lens <command> <input> <args>` prints nothing, says `stderr` and exits 2. */
function assertRefused(args: readonly string[], stderr: string, input?: Buffer): void {
  const r = cli(args, input === undefined ? {} : { input });
  assert.equal(r.stderr, stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.status, 2);
}

for (const command of ['analyze', 'explain'] as const) {
  test(`${command} --since / --until of a scrape: a usage problem, in the words both commands use`, () => {
    assertRefused([command, SCRAPE, '--since', '10:00'], WINDOW(SCRAPE, command));
    assertRefused([command, SCRAPE, '--until', '10:00', '--format', 'json'], WINDOW(SCRAPE, command));
    assertRefused(
      [command, '-', '--since', '10:00', '--until', '11:00'],
      WINDOW('stdin', command),
      readFileSync(SCRAPE),
    );
  });

  test(`${command} --boot of a scrape: a usage problem, in the words both commands use`, () => {
    assertRefused([command, SCRAPE, '--boot', '1'], BOOT(SCRAPE, command));
    assertRefused([command, SCRAPE, '--boot', '0', '--format', 'json'], BOOT(SCRAPE, command));
  });

  test(`${command} --boot with --since of a scrape: both options said at once`, () => {
    assertRefused([command, SCRAPE, '--boot', '1', '--since', '10:00'], BOTH(SCRAPE, command));
  });
}

test('analyze --format csv and trace of a scrape with a window or a boot: refused as the table is', () => {
  assertRefused(['analyze', SCRAPE, '--since', '10:00', '--format', 'csv'], WINDOW(SCRAPE, 'analyze'));
  assertRefused(['analyze', SCRAPE, '--boot', '1', '--format', 'trace'], BOOT(SCRAPE, 'analyze'));
});

test('analyze --format csv / trace of a scrape: the empty output is said on stderr, with the formats that hold it', () => {
  for (const [format, what] of [
    ['csv', 'the CSV has its header and no row'],
    ['trace', 'the trace has no request on it'],
  ] as const) {
    const r = cli(['analyze', SCRAPE, '--format', format]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stderr,
      `stage-lens analyze: ${SCRAPE} is a /metrics scrape: it has no per-request log, so ${what}; --format json or the table holds its histograms\n`,
    );
  }
  // A log's CSV says nothing of the kind.
  const log = cli(['analyze', path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log'), '--format', 'csv']);
  assert.doesNotMatch(log.stderr, /scrape/);
});
