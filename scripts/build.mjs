// One esbuild context per target (extension host, language server, CLI, webviews,
// extension-host tests). A missing entry stops the build with its name (exit 1): a
// renamed file must not leave a stale bundle in dist/. `--watch` rebuilds on change; `--only <name>` builds the targets whose
// output name starts with <name> (`--only cli`: the CLI's bundles, as tests build them).
// `--production` (vscode:prepublish, prepare): the shipped bundles minified and without
// source maps, into a dist/ emptied first (nothing stale reaches the .vsix or the npm
// package); the extension-host test bundle is not built.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : null;
const sourcemap = !production;
// server/version.ts reads it; `stage-lens --version`, the language server's serverInfo.
const define = { __STAGE_LENS_VERSION__: JSON.stringify(version) };
const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap,
  minify: production,
  logLevel: 'warning',
  define,
};

// The CLI: dist/cli.js dispatches; each command is a bundle of its own that cli.js requires
// when it runs (dist/cli-<command>.js), so a command compiles only its own code at start-up.
const CLI_COMMANDS = {
  analyze: 'server/cli/analyze.ts',
  compare: 'server/cli/compare.ts',
  demo: 'server/cli/demo.ts',
  explain: 'server/cli/explain.ts',
  simulate: 'server/simulate/cli.ts',
};
// Parts a command loads only for an option (required where used, bundles of their own):
// the deploy config's evidence brings the YAML library, which `analyze` without
// --deploy-config never needs.
const CLI_PARTS = { 'deploy-evidence': 'server/capture/deployEvidence.ts' };
// analyze's parse worker: the entry of a thread (new Worker), loaded by no require.
const CLI_THREADS = { 'parse-worker': 'server/cli/parseWorker.ts' };
const apart = { ...CLI_COMMANDS, ...CLI_PARTS };
const commandsApart = {
  name: 'cli-commands-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.startsWith(path.join(root, 'server', 'cli') + path.sep)) return undefined;
      const target = path.relative(root, path.resolve(args.resolveDir, args.path + '.ts'));
      const name = Object.keys(apart).find((n) => apart[n] === target);
      // cli.js requires each command's bundle; demo requires the simulator's (to check its options with its parser).
      const importer = path.relative(root, args.importer);
      const loadsCommand =
        importer === path.join('server', 'cli', 'main.ts') ||
        (name === 'simulate' && importer === path.join('server', 'cli', 'demo.ts'));
      if (name === undefined || (name in CLI_COMMANDS && !loadsCommand)) return undefined;
      return { path: `./cli-${name}.js`, external: true };
    });
  },
};
// The language server's entry requires the server as a bundle of its own.
const serverMainApart = {
  name: 'server-main-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/main$/ }, (args) =>
      args.importer.endsWith(path.join('server', 'lsp', 'boot.ts'))
        ? { path: './server-main.js', external: true }
        : undefined,
    );
  },
};
const targets = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'], outdir: 'dist' },
  // dist/server.js is a small entry that loads dist/server-main.js through V8's code cache
  // (server/codeCache.ts); the server itself is that second bundle.
  { ...node, entryPoints: { server: 'server/lsp/boot.ts' }, outdir: 'dist', plugins: [serverMainApart] },
  { ...node, entryPoints: { 'server-main': 'server/lsp/main.ts' }, outdir: 'dist' },
  {
    ...node,
    entryPoints: { cli: 'server/cli/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [commandsApart],
  },
  ...Object.entries({ ...apart, ...CLI_THREADS }).map(([name, entry]) => ({
    ...node,
    entryPoints: { [`cli-${name}`]: entry },
    outdir: 'dist',
    plugins: [commandsApart],
  })),
];

// The webviews take server code only through server/shared.ts and server/protocol.ts
// (test/unit/layering.test.ts). Those modules and what they reach are pure, so a webview
// bundle keeps only what it uses of them: without this, the module-level constants of
// code another webview needs (compare's metric tables) would be kept in every bundle.
const serverDir = path.join(root, 'server') + path.sep;
const serverCodeIsPure = {
  name: 'server-code-is-pure',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'pure') return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'pure',
      });
      if (found.errors.length > 0 || !found.path.startsWith(serverDir)) return undefined;
      return { ...found, sideEffects: false };
    });
  },
};

// Webviews: one browser bundle per folder of webview/ that has a main.ts.
const webviewRoot = path.join(root, 'webview');
for (const name of existsSync(webviewRoot) ? readdirSync(webviewRoot) : []) {
  const entry = path.join('webview', name, 'main.ts');
  if (existsSync(path.join(root, entry))) {
    targets.push({
      bundle: true,
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
      sourcemap,
      minify: production,
      logLevel: 'warning',
      entryPoints: { [name]: entry },
      outdir: 'dist/webview',
      loader: { '.css': 'css' },
      plugins: [serverCodeIsPure],
    });
  }
}

// Extension-host tests run inside a real VS Code: bundled like the extension (with source maps, never shipped).
// index.js is the runner; every test/editor/suite/*.test.ts is a bundle of its own next to it, which
// the runner finds by its name (no list to keep). The folder is emptied first, so a renamed or
// deleted suite leaves no stale bundle behind for the runner to find.
const editorSuiteDir = 'test/editor/suite';
const editorTestOut = 'dist/test/editor';
let editorTests = null;
if (!production) {
  const suites = readdirSync(path.join(root, editorSuiteDir))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  editorTests = {
    ...node,
    sourcemap: true,
    minify: false,
    entryPoints: Object.fromEntries([
      ['index', `${editorSuiteDir}/index.ts`],
      ...suites.map((f) => [f.slice(0, -'.ts'.length), `${editorSuiteDir}/${f}`]),
    ]),
    external: ['vscode', 'mocha'],
    outdir: editorTestOut,
  };
  targets.push(editorTests);
}

/** `file:line: text` of each line of the targets' JavaScript bundles with a character that is not ASCII. */
function nonAsciiLines(built) {
  const found = [];
  for (const dir of new Set(built.map((t) => t.outdir))) {
    const names = new Set(built.filter((t) => t.outdir === dir).flatMap((t) => Object.keys(t.entryPoints)));
    for (const name of names) {
      const file = path.join(dir, `${name}.js`);
      if (!existsSync(path.join(root, file))) continue;
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/[\u0080-\uffff]/.test(line)) found.push(`  ${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
  }
  return found;
}

if (production && only === null) rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const missing = targets.flatMap((t) => Object.values(t.entryPoints)).filter((e) => !existsSync(path.join(root, e)));
if (missing.length > 0) {
  console.error(
    `build: entry point${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')} (scripts/build.mjs names each entry)`,
  );
  process.exit(1);
}
const present = targets.filter(
  (t) => only === null || Object.keys(t.entryPoints).every((name) => name.startsWith(only)),
);
if (present.includes(editorTests)) rmSync(path.join(root, editorTestOut), { recursive: true, force: true });
const contexts = await Promise.all(present.map((t) => esbuild.context({ absWorkingDir: root, ...t })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`watching ${contexts.length} targets`);
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  const wide = nonAsciiLines(present.filter((t) => t !== editorTests));
  if (wide.length > 0) {
    console.error(
      `build: ${wide.length} line(s) of the bundles hold a character that is not ASCII, so V8 keeps each such bundle as two bytes a character (twice its memory, slower to read at every start). esbuild escapes strings, not comments or every regular expression: write these in ASCII in the source (a comment's words, \\u00b7 in a regular expression):\n${wide.join('\n')}`,
    );
    process.exit(1);
  }
  console.log(
    `built ${present.length} targets into dist/${production ? ' (production: minified, no source maps)' : ''}`,
  );
}
