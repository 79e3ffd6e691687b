// A log that merges two pods' (`kubectl logs --prefix`, the second pod restarted) in the
// workspace, imported as a person would: right-click it in the Explorer, Import Log.... The side
// panel's end-to-end table has each pod's row under the whole, with its own requests' numbers,
// as `analyze`'s "End to end per server" gives them; Latency Details names each request's pod, and
// sorts by it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { uiTest } from '../harness/ui';
import type { Workbench } from '../harness/workbench';
import { explorerRow, importFromContextMenu, sideBarWebview, waitText } from './uiHelpers';

const MERGED = path.resolve(__dirname, '../../fixtures/logs/merged-kubectl-two-servers-restart.log');

/** The merged log copied into the workspace as pods.log and imported from the Explorer: the side panel once it has its 12 requests. */
async function importPods(wb: Workbench): Promise<FrameLocator> {
  await wb.page.setViewportSize({ width: 1400, height: 900 });
  fs.copyFileSync(MERGED, path.join(wb.workspace, 'pods.log'));
  await importFromContextMenu(wb, await explorerRow(wb, 'pods.log'));
  const view = await sideBarWebview(wb, 60_000);
  await waitText(view, '[data-testid="session-meta"]', (t) => /imported · 12 requests/.test(t), 'the 12 requests');
  return view;
}

uiTest(
  "Explorer: a merged log of two pods imports with each pod's end to end in the side panel",
  async (wb) => {
    const view = await importPods(wb);
    const rows = view.locator('[data-testid="e2e-summary"] [data-testid="e2e-row"]');
    await waitText(view, '[data-testid="e2e-summary"]', (t) => t.includes('pod/vllm-omni-1/vllm'), "the pods' rows");
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.equal(texts.length, 3, texts.join(' | '));
    assert.match(texts[0] ?? '', /^end to end ?n=12 .*1,425/);
    assert.match(texts[1] ?? '', /^pod\/vllm-omni-0\/vllm ?server ?n=6 .*1,425/);
    assert.match(texts[2] ?? '', /^pod\/vllm-omni-1\/vllm ?server ?n=6 .*1,425/);
    await waitText(
      view,
      '[data-testid="e2e-section"] h2',
      (t) => t.includes('per server of the merged log'),
      'the heading',
    );
    await rows.nth(2).scrollIntoViewIfNeeded();

    // Latency Details: a server column beside the request id, sorted by a click on its header.
    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview('Stage Lens: Latency Details');
    await panel.locator('[data-testid="tab-requests"]').click();
    const sort = panel.locator('[data-testid="sort"][data-sort-key="server"]');
    await sort.click();
    await waitText(panel, '[data-testid="request-id"][data-index="11"]', (t) => t !== '', 'the sorted rows');
    const first = await panel.locator('[data-testid="request-row"]').first().innerText();
    assert.match(first.replace(/\s+/g, ' '), /pod\/vllm-omni-0\/vllm/);
    await sort.click();
    await waitText(
      panel,
      '[data-testid="request-row"]',
      (t) => t.includes('pod/vllm-omni-1/vllm'),
      'the rows sorted Z to A',
    );
    await wb.screenshot('merged-servers-imported');
  },
  { timeoutMs: 120_000 },
);

uiTest(
  "A merged log, one pod picked: the side panel and Latency Details show that pod's requests alone, as analyze --server",
  async (wb) => {
    const view = await importPods(wb);

    // The side panel offers each pod; picked, its numbers are that pod's 6 requests.
    const pick = view.locator('[data-testid="server-pick"]');
    await waitText(view, '[data-testid="servers"]', (t) => t.includes('pod/vllm-omni-1/vllm (6 requests)'), 'the pick');
    const options = await pick.locator('option').allTextContents();
    assert.deepEqual(options, [
      'All servers (12 requests)',
      'pod/vllm-omni-0/vllm (6 requests)',
      'pod/vllm-omni-1/vllm (6 requests)',
    ]);
    await pick.selectOption('pod/vllm-omni-1/vllm');
    await waitText(
      view,
      '[data-testid="server-note"]',
      (t) => t.startsWith('Numbers of server pod/vllm-omni-1/vllm only: its 6 requests'),
      'the note',
    );
    const rows = view.locator('[data-testid="e2e-summary"] [data-testid="e2e-row"]');
    await waitText(view, '[data-testid="e2e-summary"]', (t) => !t.includes('pod/vllm-omni-0/vllm'), "one pod's rows");
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    // analyze --server pod/vllm-omni-1/vllm: end to end n=6, p50 1,425; one server has no rows per server.
    assert.deepEqual(texts.length, 1, texts.join(' | '));
    assert.match(texts[0] ?? '', /^end to end ?n=6 .*1,425/, texts.join(' | '));
    // The boot pick offers that pod's own boots (it restarted after 3 requests), not the log's 9 and 3.
    await waitText(view, '[data-testid="boot-pick"]', (t) => t.includes('All boots (6 requests)'), "the pod's boots");
    const bootOptions = await view.locator('[data-testid="boot-pick"] option').allTextContents();
    assert.deepEqual(
      bootOptions.map((o) => o.split(' · ').slice(0, 2).join(' · ')),
      ['All boots (6 requests)', 'boot 1 · 3 requests', 'boot 2 · 3 requests'],
    );
    await wb.screenshot('merged-servers-one-pod-side-panel');

    // Latency Details: the other pod picked there, its table holds that pod's requests alone.
    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview('Stage Lens: Latency Details');
    await panel.locator('[data-testid="tab-requests"]').click();
    await waitText(panel, '[data-testid="request-total"]', (t) => t.startsWith('12 requests'), 'every request first');
    await panel.locator('[data-testid="boots"]').waitFor({ state: 'visible', timeout: 30_000 });
    await panel.locator('[data-testid="server-pick"]').selectOption('pod/vllm-omni-0/vllm');
    await waitText(panel, '[data-testid="request-total"]', (t) => t.startsWith('6 requests'), "the pod's 6 requests");
    // That pod never restarted: no boot to pick.
    await panel.locator('[data-testid="boots"]').waitFor({ state: 'hidden', timeout: 30_000 });
    await waitText(panel, '[data-testid="request-id"][data-index="5"]', (t) => t !== '', 'the rows');
    // The ids the log's lines tagged with that pod print.
    const podIds = new Set(
      [
        ...fs.readFileSync(MERGED, 'utf8').matchAll(/^\[pod\/vllm-omni-0\/vllm\] .*request_id=(speech-[0-9a-f]+)/gm),
      ].map((m) => m[1]),
    );
    assert.equal(podIds.size, 6);
    const ids = await panel.locator('[data-testid="request-id"]').allTextContents();
    assert.deepEqual(
      new Set(ids.map((t) => t.replace(/^\W+/, '').trim()).filter((t) => t !== '')),
      podIds,
      ids.join(' | '),
    );
    await wb.screenshot('merged-servers-one-pod-details');
  },
  { timeoutMs: 120_000 },
);

const SAMPLE = path.resolve(__dirname, '../../../samples/qwen3-tts-first-audio-cold-start.log');

uiTest(
  "Over Time of a merged log: each pod's engines are gauges of their own, named by the pod",
  async (wb) => {
    await wb.page.setViewportSize({ width: 1400, height: 900 });
    // The bundled sample as two pods printed it at once (the second under other request ids).
    const lines = fs
      .readFileSync(SAMPLE, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const merged = lines.flatMap((l) => [
      `[pod/vllm-a-0/vllm] ${l}`,
      `[pod/vllm-b-0/vllm] ${l.replaceAll('speech-', 'speechB-')}`,
    ]);
    fs.writeFileSync(path.join(wb.workspace, 'two-pods.log'), `${merged.join('\n')}\n`);
    await importFromContextMenu(wb, await explorerRow(wb, 'two-pods.log'));
    const view = await sideBarWebview(wb, 60_000);
    await waitText(view, '[data-testid="session-meta"]', (t) => /imported · 50 requests/.test(t), 'the 50 requests');

    await wb.runCommand('Stage Lens: Open Latency Details');
    const panel = await wb.webview('Stage Lens: Latency Details');
    await panel.locator('[data-testid="tab-spans"]').click();
    const legend = await waitText(
      panel,
      '[data-testid="overtime-legend"]',
      (t) => t.includes('pod/vllm-b-0/vllm'),
      "the second pod's gauges",
    );
    for (const pod of ['pod/vllm-a-0/vllm', 'pod/vllm-b-0/vllm'])
      for (const stage of ['stage 0', 'stage 1'])
        assert.ok(legend.includes(`running ${pod}: ${stage}`), `${pod} ${stage} in: ${legend}`);
    await wb.screenshot('merged-servers-over-time');
  },
  { timeoutMs: 120_000 },
);
