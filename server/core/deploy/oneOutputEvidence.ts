// What a deploy config says about the one-output signature (finding
// prefill-covers-decode): the signature needs Model Runner V2 and async chunk on that
// stage, so the config either confirms it (with the lines that set both) or contradicts
// it (then the session probably did not run this config). The finding itself comes from
// the numbers; this only adds evidence to its message.
import * as path from 'node:path';
import { isScalar, type ConfigEntry, type ConfigMap } from './configTree';
import { where } from './evidenceText';
import { entryOf } from './configTree';
import { modelRunnerSetting, stageSetting, stageViews } from './stageViews';
import { asyncChunkSetting } from './asyncChunkEvidence';

/** vLLM-Omni's default when model_runner is not set (schema: v1). */
const MODEL_RUNNER_DEFAULT = 'v1';

function scalarText(entry: ConfigEntry | undefined): string | null {
  return entry !== undefined && isScalar(entry.value) ? String(entry.value.value) : null;
}

/** One sentence: what the effective config `root` (of the file `configPath`) sets for the stage. */
export function oneOutputEvidence(root: ConfigMap, configPath: string, stageId: number): string {
  const name = path.basename(configPath);
  const view = stageViews(root).find((v) => v.id === stageId);
  const runner = modelRunnerSetting(root, view);
  const chunk = view !== undefined ? stageSetting(root, view, 'async_chunk') : entryOf(root, 'async_chunk');
  const runnerValue = scalarText(runner) ?? MODEL_RUNNER_DEFAULT;
  const { on: chunkOn, text: chunkPart } = asyncChunkSetting(chunk);
  const runnerPart = `model_runner: ${runnerValue} (${runner === undefined ? 'not set: the default' : where(runner)})`;
  if (runnerValue === 'v2' && chunkOn)
    return `The deploy config ${name} agrees: stage ${stageId} runs with ${runnerPart} and ${chunkPart}.`;
  return (
    `The deploy config ${name} sets ${runnerPart} and ${chunkPart} for stage ${stageId}, ` +
    'while this signature comes with model_runner v2 and async chunk: check that the session ran this config (or a --model-runner / --no-async-chunk override).'
  );
}
