// The npm package as `npm i -g` / `npx` of the repository makes it: `npm pack` in a copy of the
// sources runs `prepare` (the production build), keeps to package.json's `files`, and the tarball
// installs offline (no dependencies: everything is bundled) into a fresh global prefix whose
// `stage-lens` works. Real npm, real files, nothing from the network.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

const repo = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };

/** npm without the settings of an `npm test` that runs this file (prefix, lifecycle). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return env;
}

describe('npm package (npm pack, npm i -g)', () => {
  let tmp = '';
  let bin = '';
  let packed: string[] = [];
  let tarball = '';

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-npm-'));
    // A checkout: the tracked and new files without the tests, samples and docs, and the installed node_modules.
    const copy = path.join(tmp, 'repo');
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: repo,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f !== '' && !/^(test|samples|docs)\//.test(f));
    for (const f of files) {
      const from = path.join(repo, f);
      if (!fs.existsSync(from)) continue; // deleted in the work tree
      fs.mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      fs.copyFileSync(from, path.join(copy, f));
    }
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));

    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], {
      cwd: copy,
      encoding: 'utf8',
      env: npmEnv(),
      timeout: 180_000,
    });
    assert.equal(pack.status, 0, `npm pack failed:\n${pack.stderr}`);
    const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
      unpackedSize: number;
    }[];
    packed = (info[0]?.files ?? []).map((f) => f.path).sort();
    tarball = path.join(tmp, info[0]?.filename ?? '');
    assert.ok(fs.existsSync(tarball), tarball);
    // Minified bundles and the documents come to ~3.5 MB (the language client and server
    // libraries, the webviews, one bundle per CLI command so that each compiles only its own
    // code at start-up); the language server's bundle left unminified (+0.85 MB), any other
    // two, or source maps, would take it far above.
    assert.ok((info[0]?.unpackedSize ?? Infinity) < 3_750_000, `unpacked ${info[0]?.unpackedSize} bytes`);

    const prefix = path.join(tmp, 'prefix');
    const install = spawnSync(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball],
      { encoding: 'utf8', env: npmEnv(), timeout: 120_000 },
    );
    assert.equal(install.status, 0, `npm install -g failed:\n${install.stderr}`);
    bin = path.join(prefix, 'bin', 'stage-lens');
  });

  after(() => {
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('holds the production bundles and the documents only (no sources, tests, fixtures or source maps)', () => {
    assert.deepEqual(packed, [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/cli-analyze.js',
      'dist/cli-compare.js',
      'dist/cli-demo.js',
      'dist/cli-deploy-evidence.js',
      'dist/cli-explain.js',
      'dist/cli-parse-worker.js',
      'dist/cli-simulate.js',
      'dist/cli.js',
      'dist/extension.js',
      'dist/server-main.js',
      'dist/server.js',
      'dist/webview/compare.css',
      'dist/webview/compare.js',
      'dist/webview/latencyPanel.css',
      'dist/webview/latencyPanel.js',
      'dist/webview/sidePanel.css',
      'dist/webview/sidePanel.js',
      'media/icon.png',
      'media/stage-lens.svg',
      'package.json',
    ]);
  });

  test('the installed stage-lens prints its version and analyzes a log', () => {
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout, `stage-lens ${manifest.version}\n`);
    const analyze = spawnSync(
      bin,
      ['analyze', path.join(repo, 'samples', 'qwen3-tts-first-audio-cold-start.log'), '--format', 'json'],
      { encoding: 'utf8' },
    );
    assert.equal(analyze.status, 0, analyze.stderr);
    const report = JSON.parse(analyze.stdout) as { schema: number; requests: unknown[] };
    assert.equal(report.schema, 1);
    assert.ok(report.requests.length > 0);
    // The parse worker's bundle is shipped beside the others: the same JSON with the worker forced on.
    const inWorker = spawnSync(
      bin,
      ['analyze', path.join(repo, 'samples', 'qwen3-tts-first-audio-cold-start.log'), '--format', 'json'],
      { encoding: 'utf8', env: { ...process.env, STAGE_LENS_PARSE_WORKER: '1' } },
    );
    assert.equal(inWorker.status, 0, inWorker.stderr);
    assert.equal(inWorker.stdout, analyze.stdout);
    // --deploy-config requires its own bundle (the YAML library), shipped beside the others.
    const withConfig = spawnSync(
      bin,
      [
        'analyze',
        path.join(repo, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
        '--deploy-config',
        path.join(repo, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(withConfig.status, 0, withConfig.stderr);
    assert.match(withConfig.stdout.replace(/\s+/g, ' '), /The deploy config qwen3_tts\.yaml agrees/);
  });

  test('a usage error goes to stderr with exit 2, stdout stays empty', () => {
    for (const args of [[], ['bogus'], ['analyze'], ['analyze', '--format', 'xml', 'x.log']]) {
      const run = spawnSync(bin, args, { encoding: 'utf8' });
      assert.equal(run.status, 2, `stage-lens ${args.join(' ')}`);
      assert.equal(run.stdout, '', `stage-lens ${args.join(' ')} wrote to stdout`);
      assert.match(run.stderr, /Usage: stage-lens|stage-lens analyze:|unknown command/, `stage-lens ${args.join(' ')}`);
    }
  });
});
