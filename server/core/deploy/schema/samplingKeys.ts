// Default request parameters of a stage. Free-form (any SamplingParams field is valid);
// the common ones are documented for the hover.
import { key, METRICS, type KeySpec } from './keySpec';
import { acceptAll } from './engineArgKeys';

const LENGTH_METRICS = 'Bounds how many tokens this stage generates, so `vllm_decode_ms` scales with it.';

const samplingKeys: KeySpec[] = [
  key('temperature', 'number', '1.0', 'Sampling temperature (0 = greedy).', METRICS.none),
  key('top_p', 'number', '1.0', 'Nucleus sampling threshold.', METRICS.none),
  key('top_k', 'integer', '-1 (off)', 'Top-k sampling.', METRICS.none),
  key('min_p', 'number', '0', 'Minimum probability relative to the top token.', METRICS.none),
  key('max_tokens', 'integer', 'vLLM default', 'Most tokens generated per request.', LENGTH_METRICS),
  key('min_tokens', 'integer', '0', 'Fewest tokens generated before a stop token counts.', LENGTH_METRICS),
  key('seed', 'integer', 'unset', 'Sampling seed.', METRICS.none),
  key(
    'repetition_penalty',
    'number',
    '1.0',
    'Penalty for repeated tokens.',
    'Can change output length, and so decode time.',
  ),
  key('presence_penalty', 'number', '0', 'Presence penalty.', METRICS.none),
  key('frequency_penalty', 'number', '0', 'Frequency penalty.', METRICS.none),
  key(
    'stop_token_ids',
    'list',
    'unset',
    'Token ids that end generation (the pipeline may add its own).',
    LENGTH_METRICS,
  ),
  key('stop', ['list', 'string'], 'unset', 'Strings that end generation.', LENGTH_METRICS),
  key('ignore_eos', 'boolean', 'false', 'Keep generating past EOS.', LENGTH_METRICS),
  key(
    'detokenize',
    'boolean',
    'true',
    'Detokenize the output (off for stages that emit codes).',
    'Detokenizing adds output-processing time to each step.',
  ),
  key('n', 'integer', '1', 'Outputs per request.', METRICS.none),
  key('do_sample', 'boolean', 'true', 'Sample instead of greedy decoding (sub-talker).', METRICS.none),
  key(
    'num_inference_steps',
    'integer',
    'model default',
    'Diffusion denoising steps.',
    'Diffusion execution time scales with the number of steps.',
  ),
  key('guidance_scale', 'number', 'model default', 'Classifier-free guidance scale.', METRICS.diffusion),
  key('height', 'integer', 'model default', 'Image height.', METRICS.diffusion),
  key('width', 'integer', 'model default', 'Image width.', METRICS.diffusion),
];

export const samplingSchema = acceptAll('default_sampling_params', samplingKeys);
