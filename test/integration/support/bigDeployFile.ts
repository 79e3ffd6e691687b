// A 5,000-line deploy config for the size tests and the benchmark: a talker-first-audio
// header like qwen3_tts.yaml, then a chain of stages each wired to the next, and one
// deliberate typo (`max_num_seq`) in stage `TYPO_STAGE`. Its ~300 stages share GPU 0 with
// fractions small enough to fit in its memory: the one diagnostic is the typo.

export const BIG_FILE_LINES = 5000;
export const TYPO_STAGE = 100;

export interface BigDeployFile {
  readonly text: string;
  readonly stageCount: number;
  /** 1-based line of the `max_num_seq` typo. */
  readonly typoLine: number;
}

export function bigDeployFile(): BigDeployFile {
  const lines = [
    '# Synthetic 5,000-line deploy config (Stage Lens size test).',
    'model_runner: v2',
    'async_chunk: true',
    'connectors:',
    '  connector_of_shared_memory:',
    '    name: SharedMemoryConnector',
    '    extra:',
    '      talker_first_audio: true',
    '      initial_codec_chunk_frames: 1',
    '      codec_chunk_frames: 25',
    '      codec_left_context_frames: 72',
    'stages:',
  ];
  const stage = (id: number, last: boolean): string[] => [
    `  # Stage ${id}`,
    `  - stage_id: ${id}`,
    id === TYPO_STAGE ? '    max_num_seq: 64' : '    max_num_seqs: 64',
    '    gpu_memory_utilization: 0.003',
    '    enable_prefix_caching: false',
    '    async_scheduling: true',
    '    max_num_batched_tokens: 512',
    '    devices: "0"',
    '    compilation_config:',
    '      cudagraph_capture_sizes: [1, 2, 4, 8, 16, 32, 64]',
    ...(last ? [] : ['    output_connectors:', `      to_stage_${id + 1}: connector_of_shared_memory`]),
    '    default_sampling_params:',
    '      temperature: 0.9',
    '      top_k: 50',
    '      max_tokens: 4096',
  ];
  const perStage = stage(0, false).length;
  const stageCount = Math.floor((BIG_FILE_LINES - lines.length - 1) / perStage);
  let typoLine = 0;
  for (let id = 0; id < stageCount; id++) {
    if (id === TYPO_STAGE) typoLine = lines.length + 3;
    lines.push(...stage(id, id === stageCount - 1));
  }
  while (lines.length < BIG_FILE_LINES) lines.push('# padding');
  return { text: `${lines.join('\n')}\n`, stageCount, typoLine };
}
