// The extension-host suites in a DESKTOP VS Code (Electron), through @vscode/test-electron's
// runTests with an existing executable: used by test/editor/run.sh instead of the code-server
// harness when STAGE_LENS_VSCODE_EXECUTABLE is set, e.g.
//
//   STAGE_LENS_VSCODE_EXECUTABLE=/usr/share/code/code npm run test:editor
//
// Nothing is downloaded (vscodeExecutablePath is given). Same windows as the code-server harness
// (the deploy workspace, then the light window's), same bundle (dist/test/editor/index.js), same
// results files and closing line. Under Electron the demo simulator runs on VS Code's own
// executable with ELECTRON_RUN_AS_NODE=1 (suite "demo on a desktop VS Code").
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { extensionBundle, extensionTestsBundle, outputDir, repoRoot } from './config';
import { type Counts, finish, isSummaryLine, parseSummaryLine } from './summary';
import { createPlainYamlWorkspace, createWorkspace, type TestWorkspace } from './workspace';

const KIND = 'extension-tests';

const WINDOWS: readonly { readonly name: string; readonly workspace: () => TestWorkspace }[] = [
  { name: 'deploy', workspace: () => createWorkspace() },
  { name: 'light', workspace: () => createPlainYamlWorkspace() },
];

function countsOf(resultsFile: string): Counts {
  const lines = fs.existsSync(resultsFile)
    ? fs
        .readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];
  let counts: Counts | undefined;
  for (const line of lines) {
    if (isSummaryLine(line)) counts = parseSummaryLine(line);
    else console.log(line);
  }
  return (
    counts ?? {
      passed: lines.filter((l) => l.startsWith('ok ')).length,
      failed: lines.filter((l) => l.startsWith('FAIL ')).length,
      skipped: lines.filter((l) => l.startsWith('skip ')).length,
    }
  );
}

async function main(): Promise<never> {
  const executable = process.env.STAGE_LENS_VSCODE_EXECUTABLE ?? '';
  if (executable === '' || !fs.existsSync(executable))
    return finish(
      KIND,
      { passed: 0, failed: 0, skipped: 0 },
      `STAGE_LENS_VSCODE_EXECUTABLE=${executable}: no such file (a desktop VS Code executable)`,
    );
  for (const f of [extensionBundle, extensionTestsBundle]) {
    if (!fs.existsSync(f))
      return finish(
        KIND,
        { passed: 0, failed: 0, skipped: 0 },
        `${path.relative(repoRoot, f)} is missing: run npm run build`,
      );
  }
  fs.mkdirSync(outputDir, { recursive: true });
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const problems: string[] = [];
  for (const window of WINDOWS) {
    const name = window.name === 'deploy' ? KIND : `${KIND}-${window.name}`;
    const resultsFile = path.join(outputDir, `${name}.results.txt`);
    fs.rmSync(resultsFile, { force: true });
    const workspace = window.workspace();
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-electron-'));
    try {
      await runTests({
        vscodeExecutablePath: executable,
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath: extensionTestsBundle,
        extensionTestsEnv: { STAGE_LENS_TEST_RESULTS: resultsFile, STAGE_LENS_EDITOR_WINDOW: window.name },
        launchArgs: [
          workspace.dir,
          '--user-data-dir',
          path.join(profile, 'user'),
          '--extensions-dir',
          path.join(profile, 'extensions'),
          '--disable-workspace-trust',
          '--skip-welcome',
          '--skip-release-notes',
          '--disable-gpu',
        ],
      });
    } catch (err) {
      problems.push(`${window.name} window: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      workspace.remove();
      fs.rmSync(profile, { recursive: true, force: true });
    }
    const counts = countsOf(resultsFile);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    if (counts.passed === 0) problems.push(`${window.name} window: no test ran`);
  }
  return finish(KIND, total, problems.length > 0 ? problems.join('; ') : undefined);
}

main().catch((err: unknown) => {
  finish(KIND, { passed: 0, failed: 0, skipped: 0 }, err instanceof Error ? (err.stack ?? err.message) : String(err));
});
