// `stage-lens analyze --follow` on a log whose name says no pipeline (server.log): once the
// server's start-up line says it serves Qwen3-TTS, the live frame and the final summary name
// its stages talker and code2wav, as one-shot `analyze` does. The CLI is the built dist/cli.js
// on a real pseudo-terminal (util-linux `script`), the log a real file appended while followed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
/** A Qwen3-TTS log; its line 2 is the start-up `non-default args: {… 'model': 'Qwen/Qwen3-TTS-…' …}`. */
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

let tmp = '';

before(() => {
  buildBundles('cli');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-follow-model-'));
});

after(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
});

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test(
  'analyze --follow names the stages by the model the followed log serves, not only by its file name',
  { skip: hasScript ? false : 'needs util-linux script(1) for a pseudo-terminal' },
  async () => {
    const log = path.join(tmp, 'server.log');
    fs.writeFileSync(log, '');
    const command = `stty rows 60 cols 200; ${shellQuote(process.execPath)} ${shellQuote(CLI)} analyze --follow ${shellQuote(log)} --duration 5`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { timeout: 60_000 });
    let screen = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (screen += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Written while followed: the start-up lines first, then the server's first boot and its requests.
    const lines = fs.readFileSync(SAMPLE, 'utf8').split('\n');
    await sleep(1000);
    fs.appendFileSync(log, lines.slice(0, 10).join('\n') + '\n');
    await sleep(700);
    fs.appendFileSync(log, lines.slice(10, 810).join('\n') + '\n');
    assert.equal(await exit, 0, stderr);

    const [live, final] = screen.split('\nFinal summary');
    assert.ok(final !== undefined, `no final summary: ${JSON.stringify(screen.slice(-300))}`);
    const frames = live!.split('\x1b[H\x1b[2J').slice(1);
    const last = frames.at(-1) ?? '';
    assert.match(last, /Stage Lens: \d+ requests/, `no request in the last live frame: ${JSON.stringify(last)}`);
    assert.match(last, /\r\n0 · talker +\d+ +p50 /, last);
    assert.match(last, /\r\n1 · code2wav +\d+ +p50 /, last);
    assert.match(final, /\r\n0 · talker +\d+ +p50 /, final);
    assert.match(final, /\r\n1 · code2wav +\d+ +p50 /, final);
    assert.match(final, /stage 0 · talker/, final);
  },
);
