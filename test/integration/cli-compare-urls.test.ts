// `stage-lens compare` given a URL for a run: it reads files and stdin, never the network, so it
// exits 2 with the curl pipe that brings the scrape in (as analyze and explain do), the URL in
// place of the baseline or of the candidate; with two URLs, or a URL beside stdin, one scrape is
// saved to a file first. The built dist/cli.js as a real child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as cli } from './support/cliProcess';

const LOG = 'samples/qwen3-tts-first-audio-cold-start.log';
const URL = 'http://127.0.0.1:8000/metrics';
const NOT_READ = 'is a URL: compare reads a file or stdin, not the network.';

function refused(args: readonly string[], message: string): void {
  const r = cli(['compare', ...args]);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `stage-lens compare: ${message}\n`);
}

test('a URL as the baseline or the candidate exits 2 with the pipe that reads it in its place', () => {
  refused(
    [URL, LOG],
    `${URL} ${NOT_READ} To read a /metrics scrape, pipe it in: curl -s ${URL} | stage-lens compare - ${LOG}`,
  );
  refused(
    [LOG, URL],
    `${URL} ${NOT_READ} To read a /metrics scrape, pipe it in: curl -s ${URL} | stage-lens compare ${LOG} -`,
  );
  // Before the rules are read, as a path that is missing would be named first.
  refused(
    [LOG, 'HTTPS://host/metrics', '--fail-if', ';'],
    `HTTPS://host/metrics ${NOT_READ} To read a /metrics scrape, pipe it in: curl -s HTTPS://host/metrics | stage-lens compare ${LOG} -`,
  );
});

test('two URLs, or a URL beside stdin, exit 2 saving a scrape to a file first; words the shell would split are quoted', () => {
  const other = 'http://127.0.0.1:8001/metrics?name=a&b';
  refused(
    [URL, other],
    `${URL} and ${other} are URLs: compare reads a file or stdin, not the network. To read the /metrics scrapes, save one to a file and pipe the other in: curl -s '${other}' -o candidate.prom && curl -s ${URL} | stage-lens compare - candidate.prom`,
  );
  refused(
    ['-', URL],
    `${URL} ${NOT_READ} stdin is the baseline here, so save the scrape to a file first: curl -s ${URL} -o candidate.prom, then: … | stage-lens compare - candidate.prom`,
  );
  refused(
    [URL, '-'],
    `${URL} ${NOT_READ} stdin is the candidate here, so save the scrape to a file first: curl -s ${URL} -o baseline.prom, then: … | stage-lens compare baseline.prom -`,
  );
  refused(
    [URL, 'runs/after fix.log'],
    `${URL} ${NOT_READ} To read a /metrics scrape, pipe it in: curl -s ${URL} | stage-lens compare - 'runs/after fix.log'`,
  );
});
