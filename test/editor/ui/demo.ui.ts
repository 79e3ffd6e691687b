// The whole editor experience as a person meets it, in a real VS Code: open a deploy YAML,
// command palette -> "Stage Lens: Start Demo Server" (typed, not executeCommand), the
// side-panel view fills with live numbers (per-stage table, findings, the /metrics
// histograms), the latency panel sits in the editor group beside the YAML, its request
// table lists the captured requests, and a finding opens the slow request's waterfall.
// Screenshots go to $STAGE_LENS_SCREENSHOT_DIR (docs/screenshots for the README).
import assert from 'node:assert/strict';
import { uiTest } from '../harness/ui';
import { dragSash, groupOfTab, numberOf, sideBarWebview, waitText } from './uiHelpers';

/** What the page's elements are read as (no DOM types in Node tests). */
type El = {
  dataset: Record<string, string | undefined>;
  style: { left: string };
  querySelector(selector: string): { textContent: string | null } | null;
};

const YAML = 'qwen3_tts.yaml';
const PANEL = 'Stage Lens: Latency Details';

uiTest(
  'command palette -> Start Demo Server -> live side panel -> latency panel beside the deploy YAML',
  async (wb) => {
    // A larger window than the default, for screenshots that show the panel's columns.
    await wb.page.setViewportSize({ width: 1600, height: 1000 });
    await wb.openFile(YAML);

    // Like a person: F1, type the command's title, pick it.
    await wb.runCommand('Stage Lens: Start Demo Server');

    // ---------------------------------------------------------------- side panel
    const side = await sideBarWebview(wb, 60_000);
    assert.match(
      (await wb.page.locator('.part.sidebar .composite.title').textContent()) ?? '',
      /stage lens: latency summary/i,
    );
    // The cold-start demo's first request waits for a stage-0 JIT build: live numbers
    // arrive once it and a few more are through.
    const meta = await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => /^running · (\d+) requests?/.test(t) && Number(/(\d+) request/.exec(t)?.[1]) >= 3,
      'three captured requests',
      90_000,
    );
    assert.match(meta, /^running/);
    await side.locator('[data-testid="stage-row"]').nth(1).waitFor();
    const rows = await side.locator('[data-testid="stage-row"]').allTextContents();
    assert.equal(rows.length, 2, `two stages: ${rows.join(' | ')}`);
    assert.match(rows[0] ?? '', /stage 0\s*talker/);
    assert.match(rows[1] ?? '', /stage 1\s*code2wav/);
    // The talker emits one output (Model Runner V2 + async chunk): its vllm_prefill_ms covers its
    // decode, so it reads "+decode", its decode "in prefill", and it is never the red slowest phase.
    const talkerPrefill = '[data-testid="stage-row"][data-stage-key="0"] td[data-col="prefillMs"]';
    const prefill0 = await waitText(
      side,
      `${talkerPrefill} .v`,
      (t) => numberOf(t.replace(/ \+decode$/, '')) > 0 && t.endsWith(' +decode'),
      'a p50 prefill+decode of stage 0',
    );
    assert.ok(numberOf(prefill0.replace(/ \+decode$/, '')) > 0, `stage 0 p50 prefill+decode ${prefill0}`);
    assert.equal(await side.locator(`${talkerPrefill} .v`).getAttribute('data-state'), 'combined');
    assert.equal(
      await side.locator('[data-testid="stage-row"][data-stage-key="0"] td[data-col="decodeMs"] .v').textContent(),
      'in prefill',
    );
    // The slowest phase is the talker's work, its prefill+decode (one number), not the codec's wait for
    // that output (the talker sends it only when it stops), which is the same time seen from downstream.
    const slowest = await waitText(
      side,
      '[data-testid="slowest-phase"]',
      (t) => t.startsWith('slowest phase (p50): '),
      'the slowest-phase line',
    );
    assert.match(slowest, /^slowest phase \(p50\): stage 0 · talker prefill\+decode \(one output\) [\d,.]+ ms$/);
    assert.equal(await side.locator(talkerPrefill).getAttribute('data-hot'), 'true');
    assert.equal(
      await side
        .locator('[data-testid="stage-row"][data-stage-key="1"] td[data-col="inputWaitMs"]')
        .getAttribute('data-hot'),
      'false',
    );
    assert.equal(await side.locator('[data-testid="stage-row"] td[data-hot="true"]').count(), 1);
    await side.locator('[data-testid="finding"][data-code="prefill-covers-decode"]').waitFor();
    assert.match(
      (await side.locator('[data-testid="finding"][data-code="prefill-covers-decode"]').textContent()) ?? '',
      /The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line 14\) and async_chunk: true \(qwen3_tts\.yaml line 15\)/,
    );
    await wb.screenshot('demo-side-panel-slowest-phase');
    assert.ok(
      numberOf(
        await waitText(
          side,
          '[data-testid="stage-row"][data-stage-key="1"] td[data-col="field:stage_gen_time_ms"] .v',
          (t) => numberOf(t) > 0,
          'a p50 gen time of stage 1',
        ),
      ) > 0,
    );
    // The simulator runs the YAML, which does not turn talker_first_audio on: the codec's TTFT
    // is measured (the build's codec signature comes only with talker first audio), and no
    // finding says the session did not run this config.
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
    // Findings explain what the numbers hide.
    await side.locator('[data-testid="finding"][data-code="cold-start"]').waitFor();
    assert.equal(await side.locator('[data-testid="finding"][data-code="ttft-not-recorded"]').count(), 0);
    const findingTexts = await side.locator('[data-testid="finding"]').allTextContents();
    assert.ok(
      !findingTexts.some((t) => /check that the session ran this config|is not the config this server ran/.test(t)),
      findingTexts.join(' | '),
    );
    // The scrape of the simulator's /metrics, apart from the log's numbers.
    await side.locator('[data-testid="scrape-section"]').waitFor({ timeout: 30_000 });
    assert.match((await side.locator('[data-testid="scrape-section"] h2').textContent()) ?? '', /From \/metrics/);
    const ttftScrape0 = await waitText(
      side,
      '[data-testid="scrape-row"]:nth-child(1) td[data-col="ttft"] .v',
      (t) => numberOf(t) > 0,
      'a /metrics TTFT of stage 0',
      30_000,
    );
    assert.ok(numberOf(ttftScrape0) > 0);
    assert.match(
      (await side.locator('[data-testid="scrape-row"]:nth-child(1) td[data-col="ttft"]').getAttribute('title')) ?? '',
      /histogram_quantile/,
    );
    assert.ok(
      numberOf(
        await waitText(
          side,
          '[data-testid="scrape-row"]:nth-child(2) td[data-col="ttft"] .v',
          (t) => numberOf(t) > 0,
          'the codec /metrics TTFT',
        ),
      ) > 0,
    );

    // ---------------------------------------------------------------- why p99 is slow
    // The main target of a TTS pipeline is time to first audio: the codec's first output.
    // Its p99 tail, the parts with the largest mean excess over their medians, live.
    await side.locator('[data-testid="tail-section"]').waitFor({ timeout: 30_000 });
    assert.equal(
      await side.locator('[data-testid="tail-target"]').textContent(),
      'time to first audio (stage 1 · code2wav)',
    );
    assert.match(
      await waitText(
        side,
        '[data-testid="tail-headline"]',
        (t) => / requests (is )?at or above /.test(t),
        'the tail headline',
      ),
      /^(1 of \d+ requests is at or above [\d,.]+ m?s \(p99\),|\d+ of \d+ requests at or above [\d,.]+ m?s \(p99\) are on average) \+[\d,.]+ m?s above the median [\d,.]+ m?s\.$/,
    );
    await side.locator('[data-testid="tail-part"]').first().waitFor();
    const tailParts = await side.locator('[data-testid="tail-part"]').evaluateAll((els) =>
      els.map((e) => ({
        label: (e as unknown as El).querySelector('.tail-label')?.textContent ?? '',
        share: (e as unknown as El).querySelector('.tail-share')?.textContent ?? '',
        excess: Number((e as unknown as El).dataset['excessMs']),
      })),
    );
    assert.ok(tailParts.length >= 1 && tailParts.length <= 3, JSON.stringify(tailParts));
    // Real parts with real shares: named after the demo's stages, the largest first.
    for (const p of tailParts)
      assert.match(p.label, /^(stage [01] · (talker|code2wav) |preprocess|0 → 1 )/, JSON.stringify(p));
    assert.match(tailParts[0]?.share ?? '', /^-?\d+%$/);
    assert.ok((tailParts[0]?.excess ?? 0) > 0, JSON.stringify(tailParts));
    for (let i = 1; i < tailParts.length; i++)
      assert.ok((tailParts[i - 1]?.excess ?? 0) >= (tailParts[i]?.excess ?? 0), JSON.stringify(tailParts));
    // The talker's prefill is never called prefill alone (one output: it holds the decode).
    assert.ok(!tailParts.some((p) => /talker prefill$/.test(p.label)), JSON.stringify(tailParts));
    assert.match(
      (await side.locator('[data-testid="tail-note"]').textContent()) ?? '',
      // A part whose contribution is not known (the codec's unsplit gen time under its own first
      // audio) is named before the residual, which holds its time.
      /^(stage \d · \S+ gen time not split \(no prefill\/decode values\): not measured · )*residual( \(overlap\))? [+−][\d,.]+ m?s/,
    );
    // The codec's input wait is the talker's cold time seen from downstream: apart, never a
    // second part near 100% taken back by a residual near −100%.
    assert.ok(!tailParts.some((p) => /code2wav input wait$/.test(p.label)), JSON.stringify(tailParts));
    const residualShare = /\((−?\d+)%\)/.exec((await side.locator('[data-testid="tail-note"]').textContent()) ?? '');
    assert.ok(residualShare !== null && Number(residualShare[1]?.replace('−', '-')) > -50, String(residualShare));
    // Above the parts, as in the Tail tab: under time to first audio a part counts only up to it
    // (the heading names the target; the note's title says it whole).
    const contribution = side.locator('[data-testid="tail-contribution-note"]');
    assert.equal(await contribution.textContent(), 'Each part counts only its time before that first output.');
    assert.match(
      (await contribution.getAttribute('title')) ?? '',
      /^Each part counts only up to time to first audio \(stage 1 · code2wav\): /,
    );
    assert.equal(
      await side.locator('[data-testid="tail-target"]').textContent(),
      'time to first audio (stage 1 · code2wav)',
    );
    await side.locator('[data-testid="tail-section"]').scrollIntoViewIfNeeded();
    await wb.screenshot('demo-side-panel-why-p99');

    // ---------------------------------------------------------------- latency panel beside the YAML
    // Start Demo Server opened it beside the editor; a person brings the YAML forward and
    // opens the latency view from the palette again: it stays beside the YAML.
    await wb.tab(YAML).click();
    await wb.runCommand('Stage Lens: Open Latency Details');
    const yamlGroup = await groupOfTab(wb, YAML);
    const panelGroup = await groupOfTab(wb, PANEL);
    assert.ok(
      yamlGroup > 0 && panelGroup > 0 && panelGroup !== yamlGroup,
      `YAML in group ${yamlGroup}, latency panel in group ${panelGroup}`,
    );
    const yamlBox = await wb.page
      .locator('.part.editor .editor-group-container')
      .nth(yamlGroup - 1)
      .boundingBox();
    const panelBox = await wb.page
      .locator('.part.editor .editor-group-container')
      .nth(panelGroup - 1)
      .boundingBox();
    assert.ok(yamlBox !== null && panelBox !== null && panelBox.x > yamlBox.x, 'the panel is to the right of the YAML');

    // Room for the panel: the server's terminal closed (it is one click away), the YAML
    // narrowed to its keys, the side bar widened a little, each by dragging its sash.
    await wb.runCommand('View: Hide Panel');
    await dragSash(wb, yamlBox.x + yamlBox.width, yamlBox.x + 430);
    const sideBar = await wb.page.locator('.part.sidebar').boundingBox();
    if (sideBar !== null) await dragSash(wb, sideBar.x + sideBar.width, sideBar.x + 380);
    const panel = await wb.webview(PANEL);
    await panel.locator('[data-testid="tab-requests"]').click();
    const firstId = await waitText(
      panel,
      '[data-testid="request-id"][data-index="0"]',
      (t) => /^speech-[0-9a-f]{16}/.test(t),
      'the first request id in the table',
    );
    const total = Number((await panel.locator('[data-testid="request-total"]').getAttribute('data-total')) ?? 0);
    assert.ok(total >= 3, `${total} requests in the table`);
    assert.ok(
      (await panel.locator('[data-testid="request-id"]').allTextContents()).filter((t) =>
        /^speech-[0-9a-f]{16}/.test(t),
      ).length >= 3,
    );
    const prefillCell = panel.locator('[data-testid="request-row"][data-index="1"] .cell[data-col="0.prefillMs"]');
    const prefillText = ((await prefillCell.textContent()) ?? '').trim();
    assert.ok(
      prefillText.endsWith(' +decode') && numberOf(prefillText.replace(/ \+decode$/, '')) > 0,
      `a request row with the stage 0 prefill+decode: ${prefillText}`,
    );
    assert.match(firstId, /^speech-/);
    // The table follows the live session: new requests arrive while it is open.
    await waitText(
      panel,
      '[data-testid="request-total"]',
      (t) => Number(/^([\d,]+) requests/.exec(t)?.[1]?.replace(/,/g, '') ?? 0) >= 8,
      'eight requests in the table',
      60_000,
    );
    await wb.screenshot('demo-side-panel-and-requests');

    // ---------------------------------------------------------------- the slow request's waterfall
    // The cold-start finding in the side panel opens the latency panel on the request it names.
    await side.locator('[data-testid="finding"][data-code="cold-start"] button').click();
    await waitText(
      panel,
      '[data-testid="request-total"]',
      (t) => /named by finding cold-start/.test(t),
      'the table filtered to the cold-start finding',
    );
    const coldId = await waitText(
      panel,
      '[data-testid="request-id"][data-index="0"]',
      (t) => /^speech-/.test(t),
      'the cold request',
    );
    await panel.locator('[data-testid="request-id"][data-index="0"]').dblclick();
    await waitText(panel, '[data-testid="waterfall-title"]', (t) => t === coldId, "the cold request's waterfall");
    await panel.locator('[data-testid="waterfall-legend"]').waitFor();
    const described = (await panel.locator('[data-testid="waterfall-canvas"]').getAttribute('aria-label')) ?? '';
    // The JIT build sits in the talker's prefill+decode (one output, drawn as such): the slowest
    // phase, not the codec's wait for that output.
    assert.match(described, /stage 0 · talker: queued [^;]*, prefill\+decode \(one output\) [\d.,]+ s/, described);
    assert.match(described, /Slowest phase: stage 0 · talker prefill\+decode \(one output\)\./, described);
    assert.match(
      (await panel.locator('[data-testid="waterfall-meta"]').textContent()) ?? '',
      /cold: first request after a server start/,
    );
    assert.ok((await panel.locator('[data-testid="request-facts"] tr[data-stage-key="0"]').count()) === 1);
    await wb.screenshot('demo-request-waterfall');

    // ---------------------------------------------------------------- the tail requests, one click away
    await side.locator('[data-testid="tail-open"]').click();
    await waitText(
      panel,
      '[data-testid="tail-filter-text"]',
      (t) => /^Only the p99 tail: time to first audio \(stage 1 · code2wav\) ≥ /.test(t),
      'the table filtered to the tail',
    );
    const tailTotal = Number((await panel.locator('[data-testid="request-total"]').getAttribute('data-total')) ?? 0);
    assert.ok(tailTotal >= 1 && tailTotal < total + 1000, `${tailTotal} tail requests`);
    await panel.locator('[data-testid="tab-tail"]').click();
    await panel.locator('[data-testid="tail-block"]').waitFor();
    assert.ok((await panel.locator('[data-testid="tail-bar"]').count()) >= 1);
    await panel.locator('[data-testid="tail-residual"]').waitFor();
    await wb.screenshot('demo-tail-view');

    await wb.runCommand('Stage Lens: Stop Capture');
    await waitText(
      side,
      '[data-testid="session-meta"]',
      (t) => !t.startsWith('running'),
      'the capture to stop',
      20_000,
    );
  },
  { timeoutMs: 180_000 },
);
