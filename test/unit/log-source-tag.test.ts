// Logs of several servers merged into one stream (`kubectl logs --prefix`, `docker compose logs`,
// stern): every container prints the same vLLM prefix (`(APIServer pid=5151)`), so two servers'
// tables interleaved line by line are told apart by the tool's tag alone. Each server's requests
// are read as its log alone gives them, a server's restart ending its own calls only and making its
// own first request cold; text that is not such a tag is not taken for one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceTagOf } from '../../server/core/log/sourceTag';
import { scanPrefix, searchPrefix } from '../../server/core/log/prefix';
import { MAX_SOURCE_TAG } from '../../server/core/log/prefixLimits';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { analysedStream } from './support/analysedLog';
import { FIXTURES, ofKind, parseBytes, parseChunks, utf8 } from './support/logHelpers';

const LOG = readFileSync(join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');
const HEAD = '(APIServer pid=7) INFO 08-21 18:00:00 [stats.py:12] ';
const TIMING = '[OmniTiming] req=r total=1.00s engine=1.00s stages=[0:1.00s]';

/** The log's lines, each tagged by `tag` (the second server's request ids renamed, as another server's are). */
function tagged(tag: (line: string) => string, second: boolean): string[] {
  const lines = LOG.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => tag(second ? l.replaceAll('speech-', 'speechB-') : l));
}

/** Two servers' logs merged line by line, as a follow of both prints them when they write at once. */
function interleaved(first: (line: string) => string, second: (line: string) => string): string {
  const a = tagged(first, false);
  const b = tagged(second, true);
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i] as string);
    if (i < b.length) out.push(b[i] as string);
  }
  return `${out.join('\n')}\n`;
}

/** What of a request the log gives, its place in the log left out. */
function measured(r: AnalyzedRequest): unknown {
  return JSON.parse(
    JSON.stringify(r, (key, value: unknown) =>
      key === 'line' || key === 'process' || key === 'source' || key === 'server' ? undefined : value,
    ),
  );
}

function requestsOf(text: string): Map<string, unknown> {
  const analysis = analysedStream(utf8(text));
  return new Map([...analysis.requests].map((r) => [r.requestId, measured(r)]));
}

test('the tags of kubectl --prefix, docker compose and stern are read; other text before a prefix is not', () => {
  assert.deepEqual(sourceTagOf(`[pod/vllm-omni-0/vllm] ${HEAD}`), { source: 'pod/vllm-omni-0/vllm', end: 23 });
  assert.deepEqual(sourceTagOf(`vllm-omni-1  | ${HEAD}`), { source: 'vllm-omni-1', end: 15 });
  assert.deepEqual(sourceTagOf(`omni_vllm_1      | ${HEAD}`), { source: 'omni_vllm_1', end: 19 });
  assert.deepEqual(sourceTagOf(`vllm-omni-7d9f8-x2k4p vllm ${HEAD}`), {
    source: 'vllm-omni-7d9f8-x2k4p/vllm',
    end: 27,
  });
  for (const line of [
    HEAD,
    `INFO 08-21 18:00:00 [stats.py:12] ${TIMING}`,
    `[2026-01-22T14:19:11Z] ${HEAD}`,
    `2026-01-22T14:19:11.1234567Z ${HEAD}`,
    `Loading weights ${HEAD}`,
    `loading weights ${HEAD}`,
    `Processed prompts: 100%|####| ${HEAD}`,
    `[pod/vllm-omni-0] ${HEAD}`,
    `[pod/vllm-omni-0/vllm]${HEAD}`,
    `[pod//vllm] ${HEAD}`,
    `vllm-omni-1 | ${HEAD}`,
    `vllm-omni-1  |${HEAD}`,
    `| e2e_requests | 1 |`,
    '',
  ])
    assert.equal(sourceTagOf(line), null, line);
});

test(`a name in a tag: ${MAX_SOURCE_TAG} characters read by the scanner, the search and the parser, ${MAX_SOURCE_TAG + 1} by none`, () => {
  const name = (n: number): string => `v${'-'.repeat(n - 2)}0`;
  const at = `[pod/${name(MAX_SOURCE_TAG)}/vllm] ${HEAD}${TIMING}`;
  const over = `[pod/${name(MAX_SOURCE_TAG + 1)}/vllm] ${HEAD}${TIMING}`;
  const source = `pod/${name(MAX_SOURCE_TAG)}/vllm`;
  assert.equal(scanPrefix(at)?.sourceTag, source);
  assert.equal(searchPrefix(at)?.sourceTag, source);
  const processes = (text: string): Array<string | null | undefined> => {
    const fromString = parseChunks([text]);
    assert.deepEqual(parseBytes(utf8(text)), fromString, 'bytes read as the string');
    return ofKind(fromString, 'omniTiming').map((r) => r.header?.process);
  };
  assert.deepEqual(processes(`${at}\n${at}\n`), [`${source}: APIServer pid=7`, `${source}: APIServer pid=7`]);
  // One over: other output before the prefix, which the search still reads; no server is named.
  assert.equal(scanPrefix(over), null);
  assert.equal(searchPrefix(over)?.sourceTag, null);
  assert.deepEqual(processes(`${over}\n`), ['APIServer pid=7']);
  // A line of a million name characters is refused at the limit, not read to its end.
  assert.equal(sourceTagOf(`${'a'.repeat(1_000_000)}  | ${HEAD}`), null);
  assert.equal(sourceTagOf(`[pod/${'a'.repeat(1_000_000)}/vllm] ${HEAD}`), null);
});

test("two servers' logs merged line by line: each server's requests are what its log alone gives", () => {
  const alone = requestsOf(tagged((l) => l, false).join('\n') + '\n');
  const second = requestsOf(tagged((l) => l, true).join('\n') + '\n');
  assert.equal(alone.size, 6);
  const tools: [string, (line: string) => string, (line: string) => string][] = [
    ['kubectl --prefix', (l) => `[pod/vllm-a-0/vllm] ${l}`, (l) => `[pod/vllm-b-0/vllm] ${l}`],
    [
      'kubectl --prefix --timestamps',
      (l) => `[pod/vllm-a-0/vllm] 2026-12-07T07:49:02.123456789Z ${l}`,
      (l) => `[pod/vllm-b-0/vllm] 2026-12-07T07:49:02.223456789Z ${l}`,
    ],
    ['docker compose', (l) => `omni-vllm-1  | ${l}`, (l) => `omni-vllm-2  | ${l}`],
    [
      'docker compose, coloured',
      (l) => `\x1b[36momni-vllm-1  | \x1b[0m${l}`,
      (l) => `\x1b[33momni-vllm-2  | \x1b[0m${l}`,
    ],
    ['stern', (l) => `vllm-omni-0 vllm ${l}`, (l) => `vllm-omni-1 vllm ${l}`],
  ];
  for (const [tool, first, other] of tools) {
    const merged = requestsOf(interleaved(first, other));
    assert.equal(merged.size, 12, tool);
    for (const [id, request] of alone) assert.deepEqual(merged.get(id), request, `${tool}: ${id}`);
    for (const [id, request] of second) assert.deepEqual(merged.get(id), request, `${tool}: ${id}`);
    const analysis = analysedStream(utf8(interleaved(first, other)));
    assert.equal(analysis.problemCount, 0, tool);
    // Each request names the server that printed it, as its lines' tag does.
    const servers = new Map([...analysis.requests].map((r) => [r.requestId, r.server]));
    const serverOf = (line: string): string | undefined => sourceTagOf(line.replace(/\x1b\[[0-9;]*m/g, ''))?.source;
    for (const id of alone.keys()) assert.equal(servers.get(id), serverOf(first(HEAD)), `${tool}: ${id}`);
    for (const id of second.keys()) assert.equal(servers.get(id), serverOf(other(HEAD)), `${tool}: ${id}`);
  }
  // Untagged, the same two logs merged cannot be told apart: their tables break each other.
  const untagged = analysedStream(
    utf8(
      interleaved(
        (l) => l,
        (l) => l,
      ),
    ),
  );
  assert.ok(untagged.problemCount > 0);
});

test("a server's start in a merged log ends its own calls only, and its own first request is cold", () => {
  const marker = (tag: string): string =>
    `${tag}(APIServer pid=5151) INFO 10-19 07:12:00 [api_server.py:1888] vLLM API server version 0.11.0`;
  const b = tagged((l) => `[pod/vllm-b-0/vllm] ${l}`, true);
  // Server b restarts before its third call, while server a is inside its second call, between
  // its tables (a's log starts later: lines of no record before its first call).
  let calls = 0;
  const restartAt = b.findIndex((l) => l.includes('[Overall Summary]') && ++calls === 3) - 1;
  b.splice(restartAt, 0, marker('[pod/vllm-b-0/vllm] '));
  b.unshift(marker('[pod/vllm-b-0/vllm] '));
  const ownA = tagged((l) => `[pod/vllm-a-0/vllm] ${l}`, false);
  let stageTables = 0;
  const insideCall = ownA.findIndex((l) => l.includes('[StageRequestStats') && ++stageTables === 2);
  const idle = `[pod/vllm-a-0/vllm] (APIServer pid=5151) INFO 10-19 07:12:00 [launcher.py:46] Route: /health`;
  const a = [marker('[pod/vllm-a-0/vllm] '), ...Array<string>(restartAt + 1 - 1 - insideCall).fill(idle), ...ownA];
  assert.ok(restartAt + 1 - 1 - insideCall > 0);
  assert.match(a[restartAt + 1] ?? '', /\[StageRequestStats/);
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...[a[i], b[i]].filter((l) => l !== undefined));
  const analysis = analysedStream(utf8(`${out.join('\n')}\n`));
  const requests = [...analysis.requests];
  assert.equal(requests.length, 12);
  assert.equal(analysis.problemCount, 0);

  const aloneText = `${[marker(''), ...tagged((l) => l, false)].join('\n')}\n`;
  const alone = new Map([...analysedStream(utf8(aloneText)).requests].map((r) => [r.requestId, r]));
  const placeLeftOut = (r: AnalyzedRequest): unknown => {
    const { boot: _boot, ...rest } = measured(r) as { boot: number };
    return rest;
  };
  for (const r of requests) {
    const own = alone.get(r.requestId.replace('speechB-', 'speech-'));
    assert.ok(own !== undefined, r.requestId);
    if (r.requestId.startsWith('speech-')) assert.deepEqual(placeLeftOut(r), placeLeftOut(own), r.requestId);
  }
  // Cold: each server's first request, and b's first after its restart.
  const ids = requests.map((r) => r.requestId);
  const cold = requests.filter((r) => r.cold).map((r) => r.requestId);
  const firstOfB = ids.filter((id) => id.startsWith('speechB-'));
  assert.deepEqual(cold.sort(), [ids.find((id) => id.startsWith('speech-')), firstOfB[0], firstOfB[2]].sort());
});

test("a merged log's periodic Engine lines are a series per server and engine, each its own log's", () => {
  const sample = readFileSync(join(FIXTURES, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log'), 'utf8');
  const lines = sample.split('\n').filter((l) => l !== '');
  // The second server runs twice as many requests at every line: its series cannot be the first's.
  const busier = (l: string): string =>
    l.replace(/Running: (\d+) reqs/, (_m, n: string) => `Running: ${Number(n) * 2} reqs`);
  const out: string[] = [];
  for (const l of lines) out.push(`[pod/vllm-a-0/vllm] ${l}`, `[pod/vllm-b-0/vllm] ${busier(l)}`);
  const merged = analysedStream(utf8(`${out.join('\n')}\n`)).snapshot().engineSeries;
  const alone = analysedStream(utf8(`${lines.join('\n')}\n`)).snapshot().engineSeries;
  const busy = analysedStream(utf8(`${lines.map(busier).join('\n')}\n`)).snapshot().engineSeries;
  assert.ok(alone.length > 0);
  assert.equal(merged.length, 2 * alone.length);
  for (const [server, own] of [
    ['pod/vllm-a-0/vllm', alone],
    ['pod/vllm-b-0/vllm', busy],
  ] as const) {
    for (const e of own) {
      const m = merged.find((s) => s.server === server && s.engine === e.engine);
      assert.deepEqual(
        { running: m?.running, kv: m?.kvCacheUsagePerc, times: m?.times, stage: m?.stage },
        { running: e.running, kv: e.kvCacheUsagePerc, times: e.times, stage: e.stage },
        `${server} engine ${e.engine}`,
      );
    }
  }
  assert.ok(alone.every((e) => e.server === null));
});
