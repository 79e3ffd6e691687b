// What a deploy config says about stage times that overlap (finding stage-times-overlap): stages
// of one request run at the same time when async chunk feeds each downstream stage as the stages
// upstream produce, so the config either confirms it (with the line that sets async_chunk) or
// contradicts it (then the session probably did not run this config). The finding itself comes
// from the numbers; this only adds evidence to its message.
import * as path from 'node:path';
import { entryOf, isScalar, type ConfigMap } from './configTree';
import { where } from './evidenceText';

/** vLLM-Omni's default when async_chunk is not set (schema: true). */
const ASYNC_CHUNK_DEFAULT = true;

/** One sentence: what the effective config `root` (of the file `configPath`) sets for async chunk. */
export function asyncChunkEvidence(root: ConfigMap, configPath: string): string {
  const name = path.basename(configPath);
  const chunk = entryOf(root, 'async_chunk');
  const text = chunk !== undefined && isScalar(chunk.value) ? String(chunk.value.value) : null;
  const on = text === null ? ASYNC_CHUNK_DEFAULT : text === 'true';
  const setting = `async_chunk: ${text ?? String(ASYNC_CHUNK_DEFAULT)} (${chunk === undefined ? 'not set: the default' : where(chunk)})`;
  if (on) return `The deploy config ${name} agrees: ${setting}.`;
  return `The deploy config ${name} sets ${setting}, while stage times that overlap come with async chunk: check that the session ran this config (or a command-line override of it).`;
}
