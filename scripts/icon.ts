// Renders the extension's 128 px PNG icon (media/icon.png, for the Marketplace and the
// Extensions view) from the activity-bar glyph media/stage-lens.svg, with headless
// Chromium (Debian's, driven by playwright-core): the glyph's three stage bars in white on
// a rounded tile. Re-run after changing the glyph:
//   node --import tsx scripts/icon.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';

const SIZE = 128;
const root = path.resolve(__dirname, '..');
const glyph = fs
  .readFileSync(path.join(root, 'media', 'stage-lens.svg'), 'utf8')
  // The glyph draws in currentColor at 24 px; here it fills most of the tile.
  .replace(/width="24" height="24"/, 'width="96" height="96"')
  .replace('stroke-width="1.6"', 'stroke-width="1.9"');

const page = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:${SIZE}px;height:${SIZE}px;border-radius:24px;background:linear-gradient(135deg,#1f6feb,#6b3fd4);
display:flex;align-items:center;justify-content:center;color:#fff">${glyph}</div></body></html>`;

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env.STAGE_LENS_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const tab = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await tab.setContent(page);
    const out = path.join(root, 'media', 'icon.png');
    await tab.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
    console.log(`wrote ${path.relative(root, out)} (${SIZE}x${SIZE})`);
  } finally {
    await browser.close();
  }
}

void main();
