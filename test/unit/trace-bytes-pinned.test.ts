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
    '24853 89f9dbd5ca832b51a227e274a0464fcae5b347351d49b71e11325b1189eaec2f',
  'upstream-rendered qwen3tts-info-level-omnitiming-only':
    '12216 3ae6afefd6300a6e544a7a8d8b23c823de0fd9bfcfc01e81e5310173b2c52fcc',
  'upstream-rendered qwen3tts-talker-first-audio-after-fix':
    '21322 29a3fb8764b709f58301f6421a08e8d8e0b344411791980c32058c4f371a089b',
  'upstream-rendered qwen3tts-talker-first-audio-before-fix':
    '16984 9f73ad7dc1731bd6d8cb3f58c3656ac635c5967422fd40153bae49481efef0f4',
  'the bundled sample (cold starts)': '59706 606ac9e0c993718b43713a432f3a10d59c62ce391f42fd3b1466d7e28fb2759f',
  'generated qwen3-omni, 60 requests': '230639 7ff434397efd3532d9f25d0e218bee58b11683168369e410d1fcf0d8f12c6087',
  'generated glm-image (diffusion), 40 requests':
    '130410 5c8e0e8079bdd67b9901960a600410a6525a1af2fe1f4ddb16ada7aacbbebbeb',
  'generated qwen3-tts on two codec replicas, capture times':
    '134301 c5bed21dcd3429db5497ea15bbbe30fed60060485c2d097c2f9bc3225f70fa19',
};

for (const [name, run] of CASES) {
  test(`trace bytes unchanged: ${name}`, () => {
    const got = run();
    if (process.env['PRINT_TRACE_DIGESTS'] === '1') console.log(`  ${JSON.stringify(name)}: ${JSON.stringify(got)},`);
    assert.equal(got, PINNED[name]);
  });
}
