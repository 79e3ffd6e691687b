/**
 * Extension-host test entry: scripts/build.mjs bundles this file into dist/test/editor/index.js and
 * every test/editor/suite/*.test.ts into a bundle of its own next to it; VS Code `require`s this one
 * inside the extension host and awaits `run()` (the same contract as @vscode/test-electron), which
 * hands mocha every `*.test.js` of its folder. Harness: test/editor/run.sh.
 *
 * ADD A SUITE: write test/editor/suite/<feature>.test.ts with mocha's BDD globals
 * (describe/it/before/...); `import * as vscode from 'vscode'` and the helpers in ./helpers are
 * available. There is no list to edit. Suites run in file-name order, and none may rely on another
 * having run before it (each starts what it needs and stops what it started).
 * Run: `npm run build && npm run test:editor` (VERBOSE=1 also prints the extension host's console).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mocha } from './setup';

/** The compiled suites next to this bundle, in file-name order. */
function suiteFiles(): string[] {
  return fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(__dirname, f));
}

/**
 * Where the ok/FAIL/skip lines and the closing `N passed, N failed[, N skipped]` line go; the harness
 * passes the path in the server's environment (inherited by the extension host) and prints the file.
 */
function resultsFile(): string {
  return process.env.STAGE_LENS_TEST_RESULTS ?? path.resolve(__dirname, '..', '..', '..', '.vscode-test-results.txt');
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const message = err.message.split('\n').filter((l) => l.trim() !== '');
    const frames = (err.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l) && !l.includes('node_modules') && !l.includes('node:internal'));
    return [...message, ...frames.slice(0, 4).map((l) => l.trim())].join('\n       ');
  }
  return String(err);
}

/**
 * The harness runs this bundle in two windows (test/editor/harness/run-extension-tests.ts): the
 * `light window` suite only in the workspace without deploy configs, every other suite only in
 * the deploy workspace.
 */
function selectWindowSuites(): void {
  mocha.grep(/^light window /);
  if (process.env.STAGE_LENS_EDITOR_WINDOW !== 'light') mocha.invert();
}

export function run(): Promise<void> {
  selectWindowSuites();
  const file = resultsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const write = (line: string): void => {
    fs.appendFileSync(file, `${line}\n`);
  };
  write(
    `# VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI, ` +
      `remote ${vscode.env.remoteName ?? 'none'}), extension host on Node ${process.version}`,
  );

  return new Promise<void>((resolve, reject) => {
    try {
      const suites = suiteFiles();
      if (suites.length === 0) throw new Error(`no *.test.js suite next to ${__filename}: run npm run build`);
      for (const file of suites) mocha.addFile(file);
      // run() requires the files (installing mocha's globals before each), then runs them.
      const runner = mocha.run((failures) => {
        const s = runner.stats;
        const passed = s?.passes ?? 0;
        const failed = s?.failures ?? failures;
        const skipped = s?.pending ?? 0;
        write(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else if (passed === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
      runner.on('pass', (t) => write(`ok   ${t.fullTitle()} (${t.duration ?? 0} ms)`));
      runner.on('pending', (t) => write(`skip ${t.fullTitle()}`));
      runner.on('fail', (t, err) => write(`FAIL ${t.fullTitle()}: ${errorText(err)}`));
    } catch (err) {
      write(`FAIL mocha: ${errorText(err)}`);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
