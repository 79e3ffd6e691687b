// Paths and settings shared by the editor-test harness (run with `node --import tsx`).
// Everything the harness needs at run time lives in this repo or in the cache folder that
// test/editor/ensure-vscode.sh fills; nothing is read from anywhere else.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';

/** Repo root (this file is test/editor/harness/config.ts). */
export const repoRoot: string = path.resolve(__dirname, '..', '..', '..');
export const editorTestDir: string = path.join(repoRoot, 'test', 'editor');
/** Scratch output of the editor tests (gitignored). */
export const outputDir: string = path.join(repoRoot, 'test-output', 'editor');
export const fixturesDeployDir: string = path.join(repoRoot, 'test', 'fixtures', 'deploy');

/** The bundle the extension host `require`s and whose `run()` it calls (built by scripts/build.mjs). */
export const extensionTestsBundle: string = path.join(repoRoot, 'dist', 'test', 'editor', 'index.js');
export const extensionBundle: string = path.join(repoRoot, 'dist', 'extension.js');

/**
 * The packaged extension (`npm run package` writes stage-lens-<version>.vsix at the repo root),
 * for the UI tests that drive the INSTALLED extension. Throws when it is missing or older than
 * the sources it is built from, so a test never drives yesterday's package.
 */
export function packagedVsix(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown };
  const file = path.join(repoRoot, `stage-lens-${String(manifest.version)}.vsix`);
  if (!fs.existsSync(file))
    throw new Error(`${path.relative(repoRoot, file)} is missing: run npm run package (npm test does)`);
  const built = fs.statSync(file).mtimeMs;
  const newest = (p: string): { file: string; mtime: number } => {
    const st = fs.statSync(p);
    if (!st.isDirectory()) return { file: p, mtime: st.mtimeMs };
    let best = { file: p, mtime: 0 };
    for (const e of fs.readdirSync(p)) {
      const n = newest(path.join(p, e));
      if (n.mtime > best.mtime) best = n;
    }
    return best;
  };
  for (const source of ['package.json', 'src', 'server', 'webview', 'media', 'README.md']) {
    const abs = path.join(repoRoot, source);
    if (!fs.existsSync(abs)) continue;
    const n = newest(abs);
    if (n.mtime > built)
      throw new Error(
        `${path.relative(repoRoot, file)} is older than ${path.relative(repoRoot, n.file)}: run npm run package`,
      );
  }
  return file;
}

export const verbose: boolean = process.env.VERBOSE === '1' || process.env.VERBOSE === 'true';

/** Where screenshots go: $STAGE_LENS_SCREENSHOT_DIR (relative to the repo root, e.g. docs/screenshots) or test-output/screenshots. */
export function screenshotDir(): string {
  const fromEnv = process.env.STAGE_LENS_SCREENSHOT_DIR;
  const dir = fromEnv ? path.resolve(repoRoot, fromEnv) : path.join(repoRoot, 'test-output', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Failure screenshots always go to test-output/screenshots, never into docs/. */
export function failureScreenshotDir(): string {
  const dir = path.join(repoRoot, 'test-output', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Console output of this offline code-server setup that says nothing about our code (the gallery at
 * open-vsx.org is unreachable, code-server's own service worker and web manifest are absent).
 */
const knownNoise =
  /Failed to load resource|Manifest fetch|[Ss]ervice ?[Ww]orker|open-vsx\.org|ERR_NAME_NOT_RESOLVED|bad HTTP response code \(404\)/;

export function isKnownNoise(message: string): boolean {
  return knownNoise.test(message.split('\n')[0] ?? '');
}

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} is not a positive number`);
  return n;
}

export interface VSCodeInstall {
  codeServerVersion: string;
  vscodeVersion: string;
  /** The Node binary that runs the VS Code server (and so the extension host). */
  node: string;
  /** lib/vscode/out/server-main.js inside the code-server package. */
  serverMain: string;
  chromium: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Reads what ensure-vscode.sh installed; fails with a clear message when it has not run. */
export function loadInstall(): VSCodeInstall {
  const version =
    process.env.STAGE_LENS_CODE_SERVER_VERSION ??
    fs.readFileSync(path.join(editorTestDir, 'code-server-version.txt'), 'utf8').trim();
  const cache = process.env.STAGE_LENS_VSCODE_CACHE ?? path.join(os.homedir(), '.cache', 'stage-lens-vscode');
  const marker = path.join(cache, `code-server-${version}`, 'stage-lens-vscode.json');
  if (!fs.existsSync(marker)) {
    throw new Error(
      `VS Code (code-server ${version}) is not installed in ${cache}: run bash test/editor/ensure-vscode.sh`,
    );
  }
  const raw: unknown = JSON.parse(fs.readFileSync(marker, 'utf8'));
  if (!isRecord(raw)) throw new Error(`${marker}: not a JSON object`);
  const str = (key: string): string => {
    const v = raw[key];
    if (typeof v !== 'string' || v === '') throw new Error(`${marker}: missing "${key}"`);
    return v;
  };
  const chromium = process.env.STAGE_LENS_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) throw new Error(`${chromium} not found: run bash test/editor/ensure-vscode.sh`);
  const install: VSCodeInstall = {
    codeServerVersion: str('codeServerVersion'),
    vscodeVersion: str('vscodeVersion'),
    node: str('node'),
    serverMain: str('serverMain'),
    chromium,
  };
  for (const p of [install.node, install.serverMain]) {
    if (!fs.existsSync(p))
      throw new Error(`${p} is missing: delete ${path.dirname(marker)} and run bash test/editor/ensure-vscode.sh`);
  }
  return install;
}
