// The trace export's bytes, pinned: the JSON of real and generated analyses must stay
// byte for byte what it was when these digests were taken (the writer's layout code may
// change shape; its output may not). A deliberate change of the format updates the digests
// here, and says so in the commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { traceChunks } from '../../server/core/report/trace';
import { fixedClock } from '../../server/simulate/clock';
import { applyDeployConfig, loadMergedDeployConfig } from '../../server/simulate/deployConfig';
import { LogWriter } from '../../server/simulate/logWriter';
import { FIXED_BUILD } from '../../server/simulate/stageFields';
import { TimingModel } from '../../server/simulate/timingModel';
import { scenarioTopology, type Topology } from '../../server/simulate/topology';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test/fixtures/upstream-rendered');

function analyse(text: string | Buffer): AnalyzedRequest[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(typeof text === 'string' ? Buffer.from(text) : text));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.snapshot().requests];
}

function generatedLog(topology: Topology, n: number, seed: number): string {
  const model = new TimingModel(topology, { seed, rps: 4, coldStartMs: 0, firstArrivalUs: 500_000 });
  const writer = new LogWriter(
    { process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() },
    FIXED_BUILD,
  );
  return Array.from({ length: n }, () => model.next())
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
}

/** sha256 and length of the trace, written in small chunks (the chunk size must not show in the bytes). */
function digest(requests: readonly AnalyzedRequest[], captureTimesMs?: readonly number[]): string {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const chunk of traceChunks(requests, { source: 'pinned', captureTimesMs, chunkBytes: 4096 })) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return `${bytes} ${hash.digest('hex')}`;
}

const upstream = (name: string): AnalyzedRequest[] => analyse(readFileSync(path.join(UPSTREAM, `${name}.log`)));

const CASES: ReadonlyArray<readonly [string, () => string]> = [
  ['upstream-rendered qwen3-omni-three-stage-transfers', () => digest(upstream('qwen3-omni-three-stage-transfers'))],
  [
    'upstream-rendered qwen3tts-info-level-omnitiming-only',
    () => digest(upstream('qwen3tts-info-level-omnitiming-only')),
  ],
  [
    'upstream-rendered qwen3tts-talker-first-audio-after-fix',
    () => digest(upstream('qwen3tts-talker-first-audio-after-fix')),
  ],
  [
    'upstream-rendered qwen3tts-talker-first-audio-before-fix',
    () => digest(upstream('qwen3tts-talker-first-audio-before-fix')),
  ],
  [
    'the bundled sample (cold starts)',
    () => digest(analyse(readFileSync(path.join(ROOT, 'samples/qwen3-tts-first-audio-cold-start.log')))),
  ],
  ['generated qwen3-omni, 60 requests', () => digest(analyse(generatedLog(scenarioTopology('qwen3-omni'), 60, 7)))],
  [
    'generated glm-image (diffusion), 40 requests',
    () => digest(analyse(generatedLog(scenarioTopology('glm-image'), 40, 9))),
  ],
  [
    'generated qwen3-tts on two codec replicas, capture times',
    () => {
      const { config } = loadMergedDeployConfig(
        path.join(ROOT, 'test/fixtures/sim/deploy/sim_tts_two_codec_replicas.yaml'),
      );
      const requests = analyse(
        generatedLog(applyDeployConfig(scenarioTopology('qwen3-tts'), config, 'x.yaml'), 50, 11),
      );
      return digest(
        requests,
        requests.map((_, i) => 1_767_000_000_000 + i * 250),
      );
    },
  ],
];

const PINNED: Record<string, string> = {
  'upstream-rendered qwen3-omni-three-stage-transfers':
    '25065 ab0bd5ceb0cc6dccfb29e1e80c52fbb603e515e638bd8f7e9f58659fbfbb5f2b',
  'upstream-rendered qwen3tts-info-level-omnitiming-only':
    '14631 2f51b1bd1359698a711615f13b79bf45b3ff0ecb4f4708c0ce9f374d4f51c7f0',
  'upstream-rendered qwen3tts-talker-first-audio-after-fix':
    '21556 b78d567c36d911c18946657c11c7c92e25d8585d334477cce2787efd96840286',
  'upstream-rendered qwen3tts-talker-first-audio-before-fix':
    '17217 90df19be05b4b355b478e29c89130913bc75c00a715b2e6de59852bd571b5c06',
  'the bundled sample (cold starts)': '59976 f707c8017a031478dd5ef0633d1db56ad15afbbf76c334c6a2b649a131772246',
  'generated qwen3-omni, 60 requests': '230851 6979b40ed23663a2ee324cf8d389725d594b48297f0753d7558cd744751500fe',
  'generated glm-image (diffusion), 40 requests':
    '130622 dce01a27d6cd56623bef2c0c4877fde902d32bd7df9390bbbc3885e2594b696f',
  'generated qwen3-tts on two codec replicas, capture times':
    '134563 f811485dcdbbaa8af01072fb2bd3f8c98dc553535ad3f48b13bc2691e7de8fe8',
};

for (const [name, run] of CASES) {
  test(`trace bytes unchanged: ${name}`, () => {
    const got = run();
    if (process.env['PRINT_TRACE_DIGESTS'] === '1') console.log(`  ${JSON.stringify(name)}: ${JSON.stringify(got)},`);
    assert.equal(got, PINNED[name]);
  });
}
