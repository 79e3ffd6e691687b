// A log that merges two servers' (kubectl logs --prefix; the second pod restarted), imported over
// a real connection to the language server: the summary the side panel gets carries each
// server's end to end as `analyze` gives it, for the whole session and for one boot, the side
// panel's end-to-end table has a row per server in the CLI table's numbers, and Latency Details a
// server column that sorts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { endToEndModel } from '../../webview/sidePanel/endToEndModel';
import { tableColumns } from '../../webview/latencyPanel/table/columns';
import { cliStdout } from './support/cliProcess';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { tempFolder } from './support/tempFolder';

const LOG = path.resolve(__dirname, '..', 'fixtures', 'logs', 'merged-kubectl-two-servers-restart.log');
const storage = storageForFile('stage-lens-merged-servers-');

/** analyze --format json's `servers` (numbers at 3 decimals), of the whole log or one boot. */
function cliServers(...args: string[]): unknown {
  return (JSON.parse(cliStdout(['analyze', LOG, '--format', 'json', ...args])) as { servers?: unknown }).servers;
}

/** A summary's `servers` with its numbers at the JSON's 3 decimals. */
function rounded(servers: unknown): unknown {
  return JSON.parse(
    JSON.stringify(servers, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : v)),
  );
}

test(
  "a merged log's session: each server's end to end, as analyze gives it, in the summary and the side panel",
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(LOG);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.equal(summary.requestCount, 12);
    assert.deepEqual(
      summary.servers?.map((s) => [s.server, s.requests]),
      [
        ['pod/vllm-omni-0/vllm', 6],
        ['pod/vllm-omni-1/vllm', 6],
      ],
    );
    assert.deepEqual(rounded(summary.servers), cliServers());

    const model = endToEndModel(summary, 'p50');
    assert.deepEqual(
      model?.rows.map((r) => [r.key, r.label, r.role, r.requestCount, r.cells['time']?.text]),
      [
        // analyze: `end to end  12  1,425 …`, then `pod/vllm-omni-0/vllm  6  6  1,425 …` per server.
        ['e2e', 'end to end', '', 12, '1,425'],
        ['server:pod/vllm-omni-0/vllm', 'pod/vllm-omni-0/vllm', 'server', 6, '1,425'],
        ['server:pod/vllm-omni-1/vllm', 'pod/vllm-omni-1/vllm', 'server', 6, '1,425'],
      ],
    );
    assert.equal(model?.rows[1]?.countTitle?.('6'), "6 of this server's 6 requests with a measured end-to-end time");

    // Latency Details: a server column, sorted by it over the packed store.
    const columns = tableColumns(summary.stages, {}, false, summary.endToEnd?.ms ?? null, new Set(), 'info', true);
    assert.deepEqual(
      columns.slice(0, 3).map((c) => c.id),
      ['requestId', 'server', 'target:e2e'],
    );
    const page = await lsp.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      sortBy: 'server',
    });
    assert.deepEqual(
      page.requests.map((r) => columns[1]?.cell(r).text),
      [...Array<string>(6).fill('pod/vllm-omni-0/vllm'), ...Array<string>(6).fill('pod/vllm-omni-1/vllm')],
    );
    const down = await lsp.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 1,
      sortBy: 'server',
      descending: true,
    });
    assert.equal(down.requests[0]?.server, 'pod/vllm-omni-1/vllm');

    // One boot: the servers' requests of that boot, as analyze --boot gives them.
    // Each server numbers its own starts: boot 2 is the restarted pod's second, its 3 last requests.
    const boot = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { boot: 2 } });
    assert.deepEqual(rounded(boot.servers), cliServers('--boot', '2'));
    assert.equal(boot.requestCount, 3);
    assert.deepEqual(
      boot.servers?.map((s) => [s.server, s.requests]),
      [['pod/vllm-omni-1/vllm', 3]],
    );
    assert.deepEqual(
      boot.boots?.boots.map((b) => [b.boot, b.requests]),
      [
        [1, 9],
        [2, 3],
      ],
    );
  },
);

test('a log of one server has no per-server rows', { timeout: 90_000 }, async () => {
  const log = path.resolve(
    __dirname,
    '..',
    'fixtures',
    'upstream-rendered',
    'qwen3tts-talker-first-audio-after-fix.log',
  );
  const lsp = await startLanguageServer(storage);
  const session = await lsp.importLog(log);
  const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
  assert.equal(summary.servers, null);
  assert.deepEqual(
    endToEndModel(summary, 'p50')?.rows.map((r) => r.key),
    ['e2e'],
  );
  const page = await lsp.request('stageLens/requests', {
    sessionId: session.id,
    offset: 0,
    limit: 50,
    sortBy: 'server',
  });
  assert.equal(page.total, 6);
  assert.ok(page.requests.every((r) => r.server === undefined));
});

test(
  "one server of a merged log's session: its summary is analyze --server's, and every query keeps its requests",
  { timeout: 90_000 },
  async () => {
    const A = 'pod/vllm-omni-0/vllm';
    const B = 'pod/vllm-omni-1/vllm';
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(LOG);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    const offered = {
      servers: [
        { server: A, requests: 6 },
        { server: B, requests: 6 },
      ],
      untaggedRequests: 0,
    };
    assert.deepEqual(whole.sessionServers, { ...offered, selected: null });

    // analyze --server B: its requests, servers and end to end.
    const cli = JSON.parse(cliStdout(['analyze', LOG, '--format', 'json', '--server', B])) as {
      requests: unknown[];
      servers: unknown;
      endToEnd: { count: number; p50: number; p90: number; max: number };
    };
    const one = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: B } });
    assert.equal(one.requestCount, cli.requests.length);
    assert.equal(one.requestCount, 6);
    // The pick offers every server still, and says which one the numbers are over.
    assert.deepEqual(one.sessionServers, { ...offered, selected: B });
    assert.deepEqual(rounded(one.servers), cli.servers);
    const e2e = rounded(one.endToEnd?.ms) as { count: number; p50: number; p90: number; max: number };
    assert.deepEqual(
      [e2e.count, e2e.p50, e2e.p90, e2e.max],
      [cli.endToEnd.count, cli.endToEnd.p50, cli.endToEnd.p90, cli.endToEnd.max],
    );

    // One server's boot: analyze --server B --boot 2.
    const cliBoot = JSON.parse(cliStdout(['analyze', LOG, '--format', 'json', '--server', B, '--boot', '2'])) as {
      servers: unknown;
    };
    const boot = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: B, boot: 2 } });
    assert.equal(boot.requestCount, 3);
    assert.deepEqual(rounded(boot.servers), cliBoot.servers);

    // The boot pick offers the picked server's own boots: B restarted (3 requests in each), A
    // never did (no boot to pick, until a boot is picked: then A's boot 1 and the boot picked,
    // with none of A's requests in it, so that the pick can be left).
    const bootsOf = (s: typeof one): unknown =>
      s.boots === null || s.boots === undefined
        ? null
        : [s.boots.boots.map((b) => [b.boot, b.requests]), s.boots.selected];
    assert.deepEqual(bootsOf(one), [
      [
        [1, 3],
        [2, 3],
      ],
      null,
    ]);
    assert.deepEqual(bootsOf(boot), [
      [
        [1, 3],
        [2, 3],
      ],
      2,
    ]);
    assert.equal(
      bootsOf(await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: A } })),
      null,
    );
    const aBoot2 = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: A, boot: 2 } });
    assert.equal(aBoot2.requestCount, 0);
    assert.deepEqual(bootsOf(aBoot2), [
      [
        [1, 6],
        [2, 0],
      ],
      2,
    ]);

    // Latency Details' table, the Each request chart and the tail keep the same requests.
    const page = await lsp.request('stageLens/requests', {
      sessionId: session.id,
      offset: 0,
      limit: 50,
      scope: { server: B },
    });
    assert.equal(page.total, 6);
    assert.ok(page.requests.every((r) => r.server === B));
    const spans = await lsp.request('stageLens/requestSpans', { sessionId: session.id, scope: { server: A } });
    assert.equal(spans.requestIds.length, 6);
    const tail = await lsp.request('stageLens/tailAttribution', {
      sessionId: session.id,
      target: 'e2e',
      quantile: 'p90',
      scope: { server: B },
    });
    assert.equal(tail.tails.length, 1);
    assert.equal(tail.tails[0]?.scopeCount, 6);

    // A name the session has no request of: no request, and the pick still offers the real ones.
    const none = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: 'pod/gone/vllm' } });
    assert.equal(none.requestCount, 0);
    assert.deepEqual(none.sessionServers?.servers, offered.servers);
  },
);

test(
  'a merged stream of more servers than a handful (257) offers no server pick, and its summary stays whole',
  { timeout: 120_000 },
  async () => {
    const rendered = path.resolve(
      __dirname,
      '..',
      'fixtures',
      'upstream-rendered',
      'qwen3tts-talker-first-audio-after-fix.log',
    );
    const lines = fs
      .readFileSync(rendered, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const pods = Array.from({ length: 257 }, (_, i) => i);
    // Each pod prints the log whole, under ids of its own.
    const text = pods.flatMap((i) => lines.map((l) => `[pod/p-${i}/vllm] ${l.replaceAll('speech-', `speech${i}-`)}`));
    const dir = tempFolder('stage-lens-many-servers-');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'many.log');
    fs.writeFileSync(file, `${text.join('\n')}\n`);
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(file);
    const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.equal(summary.requestCount, 257 * 6);
    assert.equal(summary.sessionServers, null);
    // The per-server rows stop at 256 servers too; one server is still read by its scope.
    assert.equal(summary.servers?.length, 256);
    const one = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: 'pod/p-256/vllm' } });
    assert.equal(one.requestCount, 6);
  },
);

test(
  "a merged log of a TTS server and an Omni server: servers-differ-in-pipeline in the summary, and not in one server's",
  { timeout: 90_000 },
  async () => {
    const rendered = path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered');
    const tts = fs.readFileSync(path.join(rendered, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8').split('\n');
    const omni = fs.readFileSync(path.join(rendered, 'qwen3-omni-three-stage-transfers.log'), 'utf8').split('\n');
    const lines: string[] = [];
    for (let i = 0; i < Math.max(tts.length, omni.length); i++) {
      if ((tts[i] ?? '') !== '') lines.push(`tts-1  | ${tts[i] as string}`);
      if ((omni[i] ?? '') !== '') lines.push(`omni-1  | ${omni[i] as string}`);
    }
    const file = path.join(tempFolder('stage-lens-mixed-servers-'), 'compose.log');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(file);
    const mixed = (s: { findings: readonly { code: string; message: string }[] }) =>
      s.findings.filter((f) => f.code === 'servers-differ-in-pipeline').map((f) => f.message);
    const whole = await lsp.request('stageLens/summary', { sessionId: session.id });
    assert.equal(whole.requestCount, 9);
    const [message] = mixed(whole);
    assert.match(
      message ?? '',
      /^The servers in this merged log served 2 different pipelines: server omni-1 \(3 requests\)/,
    );
    // The CLI's warning, word for word.
    assert.match(
      cliStdout(['analyze', file]),
      new RegExp(`servers-differ-in-pipeline: ${escapeRegExp(message ?? '')}`),
    );
    // A scope that keeps both servers (cold left out) still pools them; one server's does not.
    const scoped = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { excludeCold: true } });
    assert.equal(mixed(scoped).length, 1);
    const one = await lsp.request('stageLens/summary', { sessionId: session.id, scope: { server: 'tts-1' } });
    assert.equal(one.requestCount, 6);
    assert.deepEqual(mixed(one), []);
  },
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
