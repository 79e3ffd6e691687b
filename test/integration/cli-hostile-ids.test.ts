// A request id is the client's to choose (X-Request-Id) and reaches every report. Printed to a
// terminal, or to a Markdown page a CI job renders, its control characters would be obeyed: an
// ESC ] … BEL retitles the window, a lone U+009B starts a CSI. The text reports show them as
// visible characters instead; the JSON keeps the id exactly. The CLI is the built dist/cli.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
/** The log's slowest request: named in the findings and as explain's slowest. */
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const HOSTILE = 'evil\u001b]0;pwned\u0007\u009b2Jx';
const SHOWN = 'evil\u241b]0;pwned\u2407\ufffd2Jx';

let dir = '';
let log = '';
/** compare names the runs by file: a file name can carry the same characters. */
let named = '';

before(() => {
  buildBundles('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-hostile-'));
  log = path.join(dir, 'hostile.log');
  fs.writeFileSync(log, fs.readFileSync(LOG, 'utf8').split(SLOW).join(HOSTILE));
  named = path.join(dir, `${HOSTILE}.log`);
  fs.copyFileSync(log, named);
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  assert.ok(r.status === 0 || r.status === 1, `${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

for (const args of [
  ['analyze'],
  ['explain'],
  ['explain', '--target', 'e2e'],
  ['compare', '@log', '@log'],
  ['compare', '@log', '@log', '--format', 'markdown'],
])
  test(`${args.join(' ')}: the id's control characters are shown, never sent to the terminal`, () => {
    const out = run(args.includes('@log') ? args.map((a) => (a === '@log' ? named : a)) : [...args, log]);
    // (Markdown escapes the `]` of the shown id.)
    assert.ok(out.includes(SHOWN) || out.includes(SHOWN.replace(']', '\\]')), out);
    const bad = CONTROLS.exec(out);
    assert.equal(bad, null, `a control character U+${bad?.[0].charCodeAt(0).toString(16)} in the output`);
  });

test('the JSON keeps the id exactly (escaped by JSON itself)', () => {
  const json = JSON.parse(run(['analyze', log, '--format', 'json'])) as { requests: { requestId: string }[] };
  assert.ok(json.requests.some((r) => r.requestId === HOSTILE));
});
