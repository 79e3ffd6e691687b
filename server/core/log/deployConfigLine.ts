// The deploy config a vLLM-Omni server says it loaded at start-up, read from either of two
// lines (docs/formats.md#the-deploy-config-a-log-names), and the model it serves from the second:
//   `Loaded deploy config from /path/qwen3_tts.yaml`            (vllm_omni/config/stage_config.py)
//   `non-default args: {..., 'deploy_config': '/path/x.yaml', ...}`  (vllm's entrypoints/utils.py)
// The path is text from the log, never trusted: it is bounded, and the analysis only compares
// it with files that exist. Linear in the message, never throws.

/** Longer than any path a file system takes: such a "path" is not one. */
export const MAX_DEPLOY_CONFIG_PATH = 4096;

export interface DeployConfigLine {
  readonly path: string;
  /** Which line named it. */
  readonly from: 'loaded' | 'args';
}

const LOADED = 'Loaded deploy config from ';
const ARGS = 'non-default args: {';
const ARG_KEY = "'deploy_config': ";

/** The deploy config the message names, or null. */
export function deployConfigLineOf(message: string): DeployConfigLine | null {
  const loaded = message.indexOf(LOADED);
  if (loaded >= 0) {
    const named = message.slice(loaded + LOADED.length).trim();
    return usable(named) ? { path: named, from: 'loaded' } : null;
  }
  const args = message.indexOf(ARGS);
  if (args < 0) return null;
  const key = message.indexOf(ARG_KEY, args + ARGS.length);
  if (key < 0) return null;
  const named = pythonString(message, key + ARG_KEY.length);
  return named !== null && usable(named) ? { path: named, from: 'args' } : null;
}

const usable = (p: string): boolean => p !== '' && p.length <= MAX_DEPLOY_CONFIG_PATH && !p.includes('\0');

/**
 * The model the message's non-default args name (`'model': 'Qwen/Qwen3-TTS-…'`), or null. The
 * same line may name a deploy config too (deployConfigLineOf).
 */
export function servedModelOf(message: string): string | null {
  const args = message.indexOf(ARGS);
  if (args < 0) return null;
  const key = message.indexOf(MODEL_KEY, args + ARGS.length);
  if (key < 0) return null;
  const named = pythonString(message, key + MODEL_KEY.length);
  return named !== null && usable(named) ? named : null;
}

const MODEL_KEY = "'model': ";

/** The `repr` of a str starting at `start` ('…' or "…", backslash escapes of the quotes and of itself), or null. */
function pythonString(text: string, start: number): string | null {
  const quote = text[start];
  if (quote !== "'" && quote !== '"') return null;
  let out = '';
  let from = start + 1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === quote) return out + text.slice(from, i);
    if (c === '\\') {
      const next = text[i + 1];
      // Other escapes stand for control characters, which no path of a deploy config holds.
      if (next !== '\\' && next !== "'" && next !== '"') return null;
      out += text.slice(from, i) + next;
      i++;
      from = i + 1;
    }
    if (i - start > MAX_DEPLOY_CONFIG_PATH * 2) return null;
  }
  return null;
}
