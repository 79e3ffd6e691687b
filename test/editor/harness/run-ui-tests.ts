// UI tests: a person's view of the workbench, driven by playwright-core in headless Chromium.
//
//   node --import tsx test/editor/harness/run-ui-tests.ts      (normally via test/editor/run.sh)
//
// Loads every test/editor/ui/*.ui.ts (each calls uiTest(name, async (wb) => { ... })), starts one
// VS Code server, and runs each test in a fresh browser profile on a fresh copy of the fixture
// workspace, with our extension loaded in development mode (extensionDevelopmentPath = repo root);
// tests registered with { installed: true } run against a second server into which the packaged
// .vsix was installed (--install-extension), with no development folder.
// Prints ok/FAIL lines and the closing line `N passed, N failed[, N skipped]`.
//
// Environment: STAGE_LENS_UI_GREP=text runs only tests whose name contains text;
// STAGE_LENS_UI_TEST_TIMEOUT_MS (default 90000) per test; STAGE_LENS_SCREENSHOT_DIR=docs/screenshots
// writes the screenshots for the README; VERBOSE=1 prints browser console errors of passing tests too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  editorTestDir,
  envNumber,
  extensionBundle,
  failureScreenshotDir,
  isKnownNoise,
  loadInstall,
  packagedVsix,
  repoRoot,
  verbose,
} from './config';
import { startServer, type VSCodeServer } from './server';
import { type Counts, finish } from './summary';
import { registeredUiTests, setCurrentFile } from './ui';
import { startWorkbench, type Workbench } from './workbench';
import { createWorkspace } from './workspace';

const KIND = 'ui-tests';

function slug(name: string): string {
  return name
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const ansi = /\u001b\[[0-9;]*m/g;

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const message = err.message
      .replace(ansi, '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 8);
    const frames = (err.stack ?? '')
      .split('\n')
      .filter((l) => l.includes('/test/editor/ui/'))
      .slice(0, 2);
    return [...message, ...frames.map((f) => f.trim())].join('\n       ');
  }
  return String(err);
}

async function main(): Promise<never> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  if (!fs.existsSync(extensionBundle))
    return finish(KIND, counts, `${path.relative(repoRoot, extensionBundle)} is missing: run npm run build`);
  const uiDir = path.join(editorTestDir, 'ui');
  const files = fs.existsSync(uiDir)
    ? fs
        .readdirSync(uiDir)
        .filter((f) => f.endsWith('.ui.ts'))
        .sort()
    : [];
  for (const f of files) {
    setCurrentFile(f);
    require(path.join(uiDir, f));
  }
  const grep = process.env.STAGE_LENS_UI_GREP ?? '';
  const tests = registeredUiTests().filter((t) => t.name.includes(grep));
  if (tests.length === 0)
    return finish(
      KIND,
      counts,
      `no UI test found in ${path.relative(repoRoot, uiDir)}/*.ui.ts${grep ? ` matching "${grep}"` : ''}`,
    );

  const install = loadInstall();
  const defaultTimeout = envNumber('STAGE_LENS_UI_TEST_TIMEOUT_MS', 90_000);
  const t0 = Date.now();
  const servers: { dev?: VSCodeServer; installed?: VSCodeServer; own?: VSCodeServer } = {};
  const serverFor = async (installed: boolean, own: boolean): Promise<VSCodeServer> => {
    if (own) return (servers.own = await startServer({ install, name: `${KIND}-own` }));
    if (installed)
      return (servers.installed ??= await startServer({
        install,
        name: `${KIND}-installed`,
        installVsix: packagedVsix(),
      }));
    return (servers.dev ??= await startServer({ install, name: KIND }));
  };
  /** The server a test ran on, if it got as far as starting it. */
  const startedServer = (installed: boolean, own: boolean): VSCodeServer | undefined =>
    own ? servers.own : installed ? servers.installed : servers.dev;
  let problem: string | undefined;
  try {
    for (const test of tests) {
      const label = `ui ${test.name}`;
      if (test.options.skip) {
        counts.skipped++;
        console.log(`skip ${label}`);
        continue;
      }
      const started = Date.now();
      const workspace = createWorkspace();
      const current: { wb?: Workbench } = {};
      const installed = test.options.installed === true;
      const own = test.options.ownServer === true;
      const body = (async () => {
        const srv = await serverFor(installed, own);
        current.wb = await startWorkbench({
          install,
          server: srv,
          workspace: workspace.dir,
          ...(installed ? { extensionDevelopmentPath: null } : {}),
        });
        await test.body(current.wb);
      })();
      const settled = body.then(
        () => undefined,
        () => undefined,
      ); // also: no unhandled rejection after a timeout
      try {
        await withTimeout(body, test.options.timeoutMs ?? defaultTimeout, `UI test "${test.name}"`);
        counts.passed++;
        console.log(`ok   ${label} (${Date.now() - started} ms)`);
        for (const note of current.wb?.notes ?? []) console.log(`       note: ${note}`);
        if (verbose && current.wb) for (const e of current.wb.consoleErrors) console.log(`       ${e.split('\n')[0]}`);
      } catch (err) {
        counts.failed++;
        console.log(`FAIL ${label}: ${errorText(err)}`);
        const wb = current.wb;
        if (wb) {
          for (const note of wb.notes) console.log(`       note: ${note}`);
          const shot = path.join(failureScreenshotDir(), `${slug(test.name)}-fail.png`);
          const saved = await withTimeout(wb.page.screenshot({ path: shot }), 10_000, 'failure screenshot').then(
            () => true,
            () => false,
          );
          if (saved) console.log(`       screenshot: ${path.relative(repoRoot, shot)}`);
          const errors = wb.consoleErrors.filter((e) => !isKnownNoise(e)).map((e) => e.split('\n')[0]);
          if (errors.length > 0)
            console.log(`       browser console errors:\n         ${errors.slice(-20).join('\n         ')}`);
          const frames = await withTimeout(wb.describeFrames(), 20_000, 'frames').catch(() => []);
          if (frames.length > 0) console.log(`       frames:\n         ${frames.join('\n         ')}`);
        }
        const extensionLog = startedServer(installed, own)?.extensionLogTail(15) ?? '';
        if (extensionLog !== '') {
          console.log(
            `       Stage Lens log (last lines):\n         ${extensionLog.trim().split('\n').join('\n         ')}`,
          );
        }
      } finally {
        await current.wb?.close(); // a body still running after a timeout fails fast now
        await withTimeout(settled, 15_000, 'UI test body').catch(() => undefined);
        await current.wb?.close(); // in case the workbench only came up after the timeout
        // The closed window's extension host would run on for hours, with its language server.
        await startedServer(installed, own)?.stopExtensionHosts();
        if (own) {
          await servers.own?.stop();
          servers.own = undefined;
        }
        workspace.remove();
      }
    }
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  } finally {
    await servers.dev?.stop();
    await servers.installed?.stop();
    await servers.own?.stop();
  }
  console.log(`UI tests: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return finish(KIND, counts, problem);
}

main().catch((err: unknown) => {
  finish(KIND, { passed: 0, failed: 0, skipped: 0 }, err instanceof Error ? (err.stack ?? err.message) : String(err));
});
