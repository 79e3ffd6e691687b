// What a deploy config says about stage times that overlap (finding stage-times-overlap): stages
// of one request run at the same time when async chunk feeds each downstream stage as the stages
// upstream produce, so the config either confirms it (with the line that sets async_chunk) or
// contradicts it (then the session probably did not run this config). The finding itself comes
// from the numbers; this only adds evidence to its message.
import * as path from 'node:path';
import { entryOf, isScalar, type ConfigEntry, type ConfigMap } from './configTree';
import { where } from './evidenceText';

/** vLLM-Omni's default when async_chunk is not set (schema: true). */
const ASYNC_CHUNK_DEFAULT = true;

/** Whether the entry (absent: the default) turns async chunk on, and how a sentence cites it. */
export function asyncChunkSetting(entry: ConfigEntry | undefined): { readonly on: boolean; readonly text: string } {
  const value = entry !== undefined && isScalar(entry.value) ? String(entry.value.value) : null;
  return {
    on: value === null ? ASYNC_CHUNK_DEFAULT : value === 'true',
    text: `async_chunk: ${value ?? String(ASYNC_CHUNK_DEFAULT)} (${entry === undefined ? 'not set: the default' : where(entry)})`,
  };
}

/** One sentence: what the effective config `root` (of the file `configPath`) sets for async chunk. */
export function asyncChunkEvidence(root: ConfigMap, configPath: string): string {
  const name = path.basename(configPath);
  const chunk = asyncChunkSetting(entryOf(root, 'async_chunk'));
  if (chunk.on) return `The deploy config ${name} agrees: ${chunk.text}.`;
  return `The deploy config ${name} sets ${chunk.text}, while stage times that overlap come with async chunk: check that the session ran this config (or a command-line override of it).`;
}
