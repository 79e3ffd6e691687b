// `stage-lens explain` as a user runs it (the built dist/cli.js as a real child process): its
// findings name stages with their roles in analyze's words on the same log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const LOG = path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log');

interface JsonFinding {
  readonly code: string;
  readonly stageId: number | null;
  readonly message: string;
}

function findingsOf(command: 'analyze' | 'explain', args: string[]): JsonFinding[] {
  const r = cli([command, ...args, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
}

const byKey = (findings: readonly JsonFinding[]): Map<string, string> =>
  new Map(findings.map((f) => [`${f.code}/${f.stageId}`, f.message]));

test("explain's findings name stages with their roles, in the words analyze's findings have on the same log", () => {
  for (const name of [
    'qwen3tts-talker-first-audio-after-fix.log',
    'qwen3tts-talker-first-audio-before-fix.log',
    'qwen3tts-info-level-omnitiming-only.log',
  ]) {
    const file = path.join(RENDERED, name);
    const explained = byKey(findingsOf('explain', [file]));
    const analyzed = byKey(findingsOf('analyze', [file]));
    assert.ok(explained.size > 0, name);
    for (const [key, message] of explained) assert.equal(message, analyzed.get(key), `${name} ${key}`);
  }
  const explained = byKey(findingsOf('explain', [LOG]));
  assert.match(
    explained.get('prefill-covers-decode/0') ?? '',
    /^Stage 0 · talker emits one output, when it stops, on 6 of 6 requests/,
  );
  assert.match(explained.get('preempted-requests/0') ?? '', /^Stage 0 · talker preempted 1 of 6 requests \(once\)/);
  assert.match(explained.get('queued-includes-input-wait/1') ?? '', /^Stage 1 · code2wav reports a vllm_queued_ms/);

  // The table says the finding it shows before the numbers in analyze's words too.
  const info = path.join(RENDERED, 'qwen3tts-info-level-omnitiming-only.log');
  const flat = (text: string): string => text.replace(/\s+/g, ' ');
  const missing = byKey(findingsOf('analyze', [info])).get('stage-tables-missing/null') ?? '';
  assert.notEqual(missing, '');
  assert.ok(flat(cli(['explain', info]).stdout).includes(flat(missing)));
  assert.ok(flat(cli(['analyze', info]).stdout).includes(flat(missing)));
});
