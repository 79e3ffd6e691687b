// A log of several server boots, as one server.log holds them when a server is restarted and
// logs on: each boot's start lines (the version line is the boot marker; the non-default args
// name the model it serves), then that boot's log.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempFolder } from './tempFolder';

const RENDERED = path.resolve(__dirname, '..', '..', 'fixtures', 'upstream-rendered');

/** The lines a vLLM-Omni server prints at start, serving `model`. */
export function bootLines(model: string): string {
  const p = '(APIServer pid=7001) INFO 10-19 07:00:00';
  return (
    `${p} [entrypoints/openai/api_server.py:1805] vLLM API server version 0.11.0\n` +
    `${p} [entrypoints/utils.py:326] non-default args: {'model_tag': '${model}', 'model': '${model}', 'omni': True, 'log_stats': True}\n`
  );
}

/** One boot per entry: its start lines, then the upstream-rendered fixture log `fixture`. */
export function bootsLog(boots: readonly { readonly model: string; readonly fixture: string }[]): string {
  return boots.map((b) => bootLines(b.model) + readFileSync(path.join(RENDERED, b.fixture), 'utf8')).join('');
}

/**
 * `bootsLog(boots)` written as `name` in a new temporary folder (`prefix` names it; removed after
 * the test file's tests): the folder and the file.
 */
export function bootsLogFile(
  prefix: string,
  name: string,
  boots: readonly { readonly model: string; readonly fixture: string }[],
): { readonly dir: string; readonly log: string } {
  const dir = tempFolder(prefix);
  const log = path.join(dir, name);
  writeFileSync(log, bootsLog(boots));
  return { dir, log };
}

/** A periodic `Engine 000:` stats line at `clock` (`MM-DD hh:mm:ss`). */
function engineLine(clock: string, running: number, waiting: number): string {
  return `(APIServer pid=7001) INFO ${clock} [v1/metrics/loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: ${running} reqs, Waiting: ${waiting} reqs, GPU KV cache usage: 10.0%, Prefix cache hit rate: 0.0%\n`;
}

/**
 * Two boots, each with its engine's load: the Qwen3-TTS log, whose engine prints 3 running and 1
 * waiting during its requests and 9 and 4 a moment before the restart (10-22 09:30:50, in boot 2's
 * first 30 s step); then the Qwen3-Omni log, whose engine prints 2 and 0 at 09:31:30, or nothing
 * when `bootTwoSilent`.
 */
export function engineLinesBootsLog({ bootTwoSilent = false }: { readonly bootTwoSilent?: boolean } = {}): string {
  const [one, two, ...more] = bootsLog([
    { model: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', fixture: 'qwen3tts-talker-first-audio-after-fix.log' },
    { model: 'Qwen/Qwen3-Omni-30B-A3B-Instruct', fixture: 'qwen3-omni-three-stage-transfers.log' },
  ]).split(/(?=\(APIServer pid=7001\) INFO 10-19 07:00:00 \[entrypoints\/openai)/);
  if (one === undefined || two === undefined || more.length > 0) throw new Error('the boots log is not two boots');
  return [
    one,
    engineLine('10-19 07:12:08', 3, 1),
    engineLine('10-22 09:30:50', 9, 4),
    two,
    bootTwoSilent ? '' : engineLine('10-22 09:31:30', 2, 0),
  ].join('');
}
