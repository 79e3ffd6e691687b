// Compare in the editor on a log that merges two servers' (kubectl logs --prefix; the second pod
// restarted), imported through the language server (dist/server.js over stdio):
// `stageLens/runBoots` lists its servers, and each server's own boots, and `stageLens/compare`
// with a server (and a boot of it) per side reads each side as `stage-lens compare pods.log
// pods.log --baseline-server … --candidate-server …` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';
import { cliStdout } from './support/cliProcess';
import { compareJson } from '../../server/core/compare';
import type { CompareJson } from '../../server/core/compare';

const LOG = path.resolve(__dirname, '..', 'fixtures', 'logs', 'merged-kubectl-two-servers-restart.log');
const POD0 = 'pod/vllm-omni-0/vllm';
const POD1 = 'pod/vllm-omni-1/vllm';
const storage = storageForFile('stage-lens-lsp-compare-servers-');

/** Every metric's p50 on each side. */
function p50s(report: Pick<CompareJson, 'metrics'>): unknown[] {
  return report.metrics.map((m) => [m.scope, m.metric, m.baseline.p50, m.candidate.p50]);
}

test(
  "an imported merged log, one pod against the other and one pod's boots: the servers and boots listed, each side as the CLI compares it",
  { timeout: 120_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(LOG);
    const target = { sessionId: session.id };
    const servers = [
      { server: POD0, requests: 6 },
      { server: POD1, requests: 6 },
    ];
    // The session and the file on disk offer the same: both pods, and (whatever server is asked
    // about) the servers; the boots of one pod are its own (pod 0 never restarted).
    for (const run of [target, { path: LOG }]) {
      const whole = await lsp.request('stageLens/runBoots', run);
      assert.deepEqual([whole.servers, whole.untaggedRequests], [servers, 0]);
      assert.deepEqual(
        whole.boots.map((b) => [b.boot, b.requests]),
        [
          [1, 9],
          [2, 3],
        ],
      );
      const pod0 = await lsp.request('stageLens/runBoots', { ...run, server: POD0 });
      assert.deepEqual(
        pod0.boots.map((b) => [b.boot, b.requests]),
        [[1, 6]],
      );
      assert.deepEqual(pod0.servers, servers);
      const pod1 = await lsp.request('stageLens/runBoots', { ...run, server: POD1 });
      assert.deepEqual(
        pod1.boots.map((b) => [b.boot, b.requests]),
        [
          [1, 3],
          [2, 3],
        ],
      );
      assert.equal(pod1.boots[0]?.model, whole.boots[0]?.model);
      assert.deepEqual((await lsp.request('stageLens/runBoots', { ...run, server: 'pod/none' })).boots, []);
    }

    // Pod 0 against pod 1, as the CLI compares them.
    const expected = JSON.parse(
      cliStdout(['compare', LOG, LOG, '--baseline-server', POD0, '--candidate-server', POD1, '--format', 'json']),
    ) as CompareJson;
    const result = await lsp.request('stageLens/compare', {
      baseline: target,
      candidate: target,
      baselineServer: POD0,
      candidateServer: POD1,
    });
    assert.deepEqual(result.baselineRun, {
      name: 'merged-kubectl-two-servers-restart.log',
      imported: true,
      detail: LOG,
      server: POD0,
    });
    assert.deepEqual(result.candidateRun, {
      name: 'merged-kubectl-two-servers-restart.log',
      imported: true,
      detail: LOG,
      server: POD1,
    });
    const json = compareJson(result.report, []);
    assert.deepEqual(
      [json.baseline.requestCount, json.baseline.server, json.candidate.requestCount, json.candidate.server],
      [6, POD0, 6, POD1],
    );
    assert.deepEqual(p50s(json), p50s(expected));
    assert.ok(p50s(json).length > 0);

    // Pod 1 before and after its restart: its boot 1 (3 requests) against its boot 2, the file on
    // disk against the session, as `--baseline-server pod1 --baseline-boot 1 --candidate-boot 2` reads them.
    const restart = JSON.parse(
      cliStdout([
        'compare',
        LOG,
        LOG,
        '--baseline-server',
        POD1,
        '--baseline-boot',
        '1',
        '--candidate-server',
        POD1,
        '--candidate-boot',
        '2',
        '--format',
        'json',
      ]),
    ) as CompareJson;
    const byBoot = await lsp.request('stageLens/compare', {
      baseline: { path: LOG },
      candidate: target,
      baselineServer: POD1,
      baselineBoot: 1,
      candidateServer: POD1,
      candidateBoot: 2,
    });
    assert.deepEqual(byBoot.candidateRun, {
      name: 'merged-kubectl-two-servers-restart.log',
      imported: true,
      detail: LOG,
      boot: 2,
      server: POD1,
    });
    const byBootJson = compareJson(byBoot.report, []);
    assert.deepEqual(
      [byBootJson.baseline.requestCount, byBootJson.baseline.boot, byBootJson.candidate.requestCount],
      [3, 1, 3],
    );
    assert.deepEqual(p50s(byBootJson), p50s(restart));

    // A server the log lacks, or a boot of a pod that never restarted: refused, with what it has.
    await assert.rejects(
      lsp.request('stageLens/compare', { baseline: target, candidate: target, baselineServer: 'pod/x' }),
      /the log has no request of server 'pod\/x': its servers are pod\/vllm-omni-0\/vllm \(6 requests\) and pod\/vllm-omni-1\/vllm \(6 requests\)/,
    );
    await assert.rejects(
      lsp.request('stageLens/compare', {
        baseline: target,
        candidate: target,
        baselineServer: POD0,
        baselineBoot: 2,
      }),
      /the log has no request of server 'pod\/vllm-omni-0\/vllm' in boot 2: boot 2's servers are pod\/vllm-omni-1\/vllm \(3 requests\); each server numbers its own starts/,
    );
  },
);
