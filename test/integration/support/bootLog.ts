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
