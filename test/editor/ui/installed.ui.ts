// The packaged extension as a user has it: stage-lens-<version>.vsix installed into the VS Code
// server with --install-extension (what `code --install-extension` does), no development folder.
// Start Demo Server from the palette must work end to end from the INSTALLED files alone: the
// extension bundle, the language server (dist/server.js), the simulator (dist/cli.js) and the
// webview bundles. A file left out of the package fails here.
import assert from 'node:assert/strict';
import { uiTest } from '../harness/ui';
import { numberOf, sideBarWebview, waitText } from './uiHelpers';

uiTest(
  'installed .vsix: Start Demo Server from the palette fills the side bar and opens Latency Details',
  async (wb) => {
    await wb.page.locator('.part.statusbar').waitFor();
    assert.doesNotMatch(await wb.windowTitle(), /Extension Development Host/, 'no development folder is loaded');
    await wb.openFile('qwen3_tts.yaml');
    await wb.runCommand('Stage Lens: Start Demo Server');

    const side = await sideBarWebview(wb, 60_000);
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => /^running · ([3-9]|\d\d+) requests/.test(t),
      'three captured requests',
      90_000,
    );
    // The demo's talker emits one output (Model Runner V2 + async chunk): its prefill covers its decode.
    const prefill = await waitText(
      side,
      '[data-testid="stage-row"][data-stage-key="0"] td[data-col="prefillMs"] .v',
      (t) => t.endsWith(' +decode') && numberOf(t.replace(/ \+decode$/, '')) > 0,
      'a p50 prefill+decode of stage 0',
    );
    assert.ok(numberOf(prefill.replace(/ \+decode$/, '')) > 0);
    // The simulator runs the YAML, which does not turn talker_first_audio on: the codec's TTFT is measured.
    assert.ok(
      numberOf(
        await waitText(
          side,
          '[data-testid="stage-row"][data-stage-key="1"] td[data-col="ttftMs"] .v',
          (t) => numberOf(t) > 0,
          'a codec TTFT',
        ),
      ) > 0,
    );

    // Latency Details opened beside the YAML, with the captured requests.
    const panel = await wb.webview('Stage Lens: Latency Details');
    await panel.locator('[data-testid="tab-requests"]').click();
    await waitText(
      panel,
      '[data-testid="request-total"]',
      (t) => Number(/^([\d,]+) requests/.exec(t)?.[1]?.replace(/,/g, '') ?? 0) >= 3,
      'three requests in the table',
    );
    await wb.screenshot('installed-vsix-demo');

    await wb.runCommand('Stage Lens: Stop Capture');
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => !t.startsWith('running'),
      'the capture to stop',
      20_000,
    );
  },
  { installed: true, timeoutMs: 180_000 },
);
