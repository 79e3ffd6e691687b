// Human labels for stages, phases and fields. DOM-free.
import type { SplitName } from '../../server/protocol';

export const SPLIT_LABEL: Readonly<Record<SplitName, string>> = {
  queuedMs: 'queued',
  inputWaitMs: 'input wait',
  readyQueuedMs: 'ready queued',
  prefillMs: 'prefill',
  decodeMs: 'decode',
  ttftMs: 'TTFT',
};

/** The log field behind each split value (kept here so the webview bundle needs no server runtime). */
export const SPLIT_FIELD_NAME: Readonly<Record<SplitName, string>> = {
  queuedMs: 'vllm_queued_ms',
  inputWaitMs: 'vllm_input_wait_ms',
  readyQueuedMs: 'vllm_ready_queued_ms',
  prefillMs: 'vllm_prefill_ms',
  decodeMs: 'vllm_decode_ms',
  ttftMs: 'vllm_ttft_ms',
};

export const ALL_SPLITS: readonly SplitName[] = ['queuedMs', 'inputWaitMs', 'readyQueuedMs', 'prefillMs', 'decodeMs', 'ttftMs'];

export const FIELD_GEN_TIME = 'stage_gen_time_ms';
export const FIELD_FIRST_OUTPUT = 'serving_time_to_first_output_ms';
export const FIELD_AUDIO_DURATION = 'audio_duration_s';

const FIELD_LABEL: Readonly<Record<string, string>> = {
  [FIELD_GEN_TIME]: 'gen time',
  [FIELD_FIRST_OUTPUT]: 'first output',
  [FIELD_AUDIO_DURATION]: 'audio',
};

/** A short label for a field; unknown fields keep their log name (shown as text, never markup). */
export function fieldLabel(name: string): string {
  return FIELD_LABEL[name] ?? name;
}

/** Stage id part of a stage key: `1_2` -> `1`. */
export function stageIdOfKey(stageKey: string): string {
  const cut = stageKey.indexOf('_');
  return cut < 0 ? stageKey : stageKey.slice(0, cut);
}

/** Role name of a stage from the deploy config ("talker"), or ''. */
export function stageRole(stageKey: string, stageNames: Readonly<Record<string, string>>): string {
  return stageNames[stageIdOfKey(stageKey)] ?? '';
}

/** "stage 1 · code2wav", "stage 1_2", "stage 0". */
export function stageLabel(stageKey: string, stageNames: Readonly<Record<string, string>>): string {
  const role = stageRole(stageKey, stageNames);
  return role === '' ? `stage ${stageKey}` : `stage ${stageKey} · ${role}`;
}

export type TimelinePhase = 'inputWait' | 'readyQueued' | 'queued' | 'prefill' | 'decode' | 'stage';

export const PHASE_LABEL: Readonly<Record<TimelinePhase, string>> = {
  inputWait: 'input wait',
  readyQueued: 'ready queued',
  queued: 'queued',
  prefill: 'prefill',
  decode: 'decode',
  stage: 'whole stage (submit → finished)',
};
