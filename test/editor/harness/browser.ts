// Headless Debian Chromium driven by playwright-core, one fresh profile (--user-data-dir) per page.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { onCleanup, recordForCleanup, removeDirNow } from './cleanup';
import type { VSCodeInstall } from './config';

export interface BrowserPage {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Flags proven on this machine; playwright adds --headless and --user-data-dir itself. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function openBrowser(
  install: VSCodeInstall,
  viewport = { width: 1400, height: 900 },
): Promise<BrowserPage> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-chromium-'));
  recordForCleanup('dir', userDataDir);
  const removeProfile = onCleanup(() => removeDirNow(userDataDir));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: install.chromium,
      headless: true,
      args: chromiumArgs,
      viewport,
      // The harness handles signals itself (cleanup.ts); playwright still kills the browser at exit.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 60_000,
    });
  } catch (err) {
    removeProfile();
    throw err;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.race([context.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
      removeProfile();
    },
  };
}
