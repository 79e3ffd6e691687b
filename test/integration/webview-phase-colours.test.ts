// The phase colours of the request timeline's legend, in the built bundle in headless Chromium
// under VS Code's Dark Modern and Light Modern variables, over the synthetic session whose
// downstream stages print the input split: every phase's swatch is told apart from every other
// (CIE76 ΔE ≥ 30; the charts' yellow and orange of ready queued and queued were 23 apart in
// the dark theme and 10 in the light one), and the canvas draws a phase in its swatch's colour.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WebviewHarness, waitUntil } from '../fixtures/webview/browserHarness';
import { syntheticSession } from '../fixtures/webview/syntheticSession';

let harness: WebviewHarness;

before(async () => {
  harness = await WebviewHarness.start(syntheticSession(40));
});

after(async () => {
  await harness?.close();
});

type Rgb = readonly [number, number, number];

function lab([r8, g8, b8]: Rgb): Rgb {
  const lin = (c: number): number => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [lin(r8), lin(g8), lin(b8)];
  const x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
  const y = r * 0.2126 + g * 0.7152 + b * 0.0722;
  const z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
  const f = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const deltaE = (a: Rgb, b: Rgb): number => {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

for (const theme of ['dark', 'light'] as const) {
  test(`${theme} theme: every phase of the timeline's legend has a colour of its own`, async () => {
    const view = await harness.open('latencyPanel', { width: 1100, height: 700, theme });
    try {
      const page = view.page;
      await waitUntil(page, `document.querySelector('[data-testid="request-total"]')?.dataset.total === '40'`);
      await page.locator('[data-testid="request-id"][data-index="1"]').dblclick();
      await page.getByTestId('waterfall-legend').waitFor();
      const swatches =
        (await page.evaluate(`[...document.querySelectorAll('[data-testid="waterfall-legend"] .legend-item > .swatch[data-phase]')]
        .map((s) => [s.dataset.phase, getComputedStyle(s).backgroundColor])`)) as [string, string][];
      const colours = new Map<string, Rgb>();
      for (const [phase, css] of swatches) {
        const m = /^rgba?\((\d+), (\d+), (\d+)/.exec(css);
        if (m !== null && phase !== 'stage') colours.set(phase, [Number(m[1]), Number(m[2]), Number(m[3])]);
      }
      for (const p of ['queued', 'readyQueued', 'inputWait', 'prefill', 'decode'])
        assert.ok(colours.has(p), `${p} in the legend: ${JSON.stringify(swatches)}`);
      const close: string[] = [];
      const phases = [...colours.keys()];
      for (let i = 0; i < phases.length; i++)
        for (let j = i + 1; j < phases.length; j++) {
          const d = deltaE(colours.get(phases[i]!)!, colours.get(phases[j]!)!);
          if (d < 30) close.push(`${phases[i]} ~ ${phases[j]}: ΔE ${d.toFixed(0)}`);
        }
      assert.deepEqual(close, []);
      // The canvas reads the same colour the swatch shows.
      const canvasColour = (await page.evaluate(`(() => {
        const c = document.createElement('canvas').getContext('2d');
        c.fillStyle = getComputedStyle(document.body).getPropertyValue('--sl-ready-queued').trim();
        return c.fillStyle;
      })()`)) as string;
      const [r, g, b] = colours.get('readyQueued')!;
      assert.equal(canvasColour, `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`);
    } finally {
      await view.close();
    }
  });
}
