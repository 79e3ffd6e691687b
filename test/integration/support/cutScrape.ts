// A /metrics scrape cut short inside a family, from the simulator's Qwen3-TTS scrape: its
// stage 0 generation token counter set to 0, so once the cut takes stage 1's series, all that is
// left of the family reads 0 (a family stuck at 0, were the cut not known). Cut as a truncated
// text file (inside a line) and as a .prom.gz whose stream ends (at a line feed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export const REPLICAS_SCRAPE = path.resolve(
  __dirname,
  '..',
  '..',
  'fixtures',
  'scrapes',
  'qwen3-tts-codec-replicas.prom',
);

const STAGE1_TOKENS = 'vllm:generation_tokens_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1"';

/** The whole scrape, stage 0's generation tokens 0 (stage 1's count them). */
export function tokensBody(): string {
  return fs
    .readFileSync(REPLICAS_SCRAPE, 'utf8')
    .replace(/^(vllm:generation_tokens_total\{[^}]*stage="0"[^}]*\}) \S+$/m, '$1 0.0');
}

/** The body cut inside stage 1's first generation token line (no line feed after it). */
export function cutInsideLine(body: string): string {
  const at = body.indexOf(STAGE1_TOKENS);
  if (at < 0) throw new Error('no stage 1 generation tokens in the scrape');
  return body.slice(0, at + STAGE1_TOKENS.length - 10);
}

/** The body to the line feed before stage 1's generation tokens, gzipped, its stream ending there (no trailer). */
export function gzipCutAtLineFeed(body: string): Buffer {
  return zlib.gzipSync(body.slice(0, body.indexOf(STAGE1_TOKENS))).subarray(0, -8);
}

/** The line of the body the cut text ends inside (1-based). */
export function cutLine(body: string): number {
  return cutInsideLine(body).split('\n').length;
}

/** The start of each line of the scrape's last histogram series (stage 1 replica 1's decode time), by its sample name's suffix. */
export function lastSeriesLine(suffix: '_bucket' | '_count' | '_sum', le?: string): string {
  const labels = 'model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="1"';
  return `vllm:request_decode_time_seconds${suffix}{${labels}${le === undefined ? '' : `,le="${le}"`}}`;
}

/** The body cut inside the line that starts with `line` (its last one), `keep` characters after it (no line feed after them). */
export function cutInto(body: string, line: string, keep: number): string {
  const at = body.lastIndexOf(`\n${line}`);
  if (at < 0) throw new Error(`no line ${line} in the scrape`);
  return body.slice(0, at + 1 + line.length + keep);
}

/** The body to the line feed before the line that starts with `line`, gzipped, its stream ending there (no trailer). */
export function gzipCutBefore(body: string, line: string): Buffer {
  const at = body.lastIndexOf(`\n${line}`);
  if (at < 0) throw new Error(`no line ${line} in the scrape`);
  return zlib.gzipSync(body.slice(0, at + 1)).subarray(0, -8);
}
