// The layering rules of the code, checked on every import (read by the TypeScript parser,
// so a new file or a new import is covered without a list to keep up):
//
// - server/core (parsing, model, analysis) imports its own files, the node:* modules that do
//   no I/O (CORE_BUILTINS: path strings, bytes, TextDecoder) and its declared libraries
//   (CORE_LIBRARIES) — never vscode, the LSP libraries, the file system, the network or
//   processes. Capture, the language server and the CLI do the I/O and hand it text.
// - src/ (extension host) and webview/ (browser bundles) reach server/ only through
//   server/protocol.ts (the wire's types and constants) and server/shared.ts (the pure rules
//   both sides apply: labels, the slowest-phase rule, compare's change words). The webviews
//   used to import server/core directly, and compare's panel its types; they now go through
//   those two modules, so what the views may depend on is one short list. src/ imports no
//   webview code but the DOM-free session-status words (HOST_SHARES_WITH_VIEWS).
// - server/shared.ts reaches only server/core files that import no library and no node:*
//   module (it is bundled into the browser); server/protocol.ts imports types only.
// - server/capture imports server/protocol.ts, but types only: the shapes capture produces
//   (SessionInfo, PrometheusSummary, ...) are the ones the wire carries, and declaring them
//   twice would let the two drift. Capture never imports server/lsp or server/cli.
// - server/cli and server/lsp are two front ends over capture and core: neither imports the other.
// - server/simulate (the vLLM-Omni stand-in the tests and the demo run) imports nothing of the
//   product, so it behaves like the real server and not like our reading of it; only the CLI's
//   `simulate` command loads it, the language server its check of a deploy config and the
//   session title what a demo runs (SIMULATOR_CHECKS: Start Demo Server asks it before launching,
//   and names the session by its answer, so the two cannot disagree).
// - server/ imports nothing from src/ or webview/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const SCOPES = ['server', 'src', 'webview'];

/** node:* modules the core may use: none reads or writes anything outside the process. */
const CORE_BUILTINS = new Set(['node:path', 'node:buffer', 'node:util']);
/** Libraries the core may use (each a dependency in package.json). */
const CORE_LIBRARIES = new Set(['yaml']);
/** What the simulator may import besides its own files. */
const SIMULATE_LIBRARIES = new Set(['yaml']);
/**
 * The modules besides the CLI that load the simulator, and what of it: the language server's
 * check of a deploy config, and the name of a demo session (the model and pipeline the
 * simulator's own option parser says it runs).
 */
const SIMULATOR_CHECKS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['server/lsp/demoConfigCheck.ts', new Set(['server/simulate/deployConfig.ts', 'server/simulate/topology.ts'])],
  ['server/capture/sessionTitle.ts', new Set(['server/simulate/options.ts'])],
]);
/** The only modules of server/ that src/ and webview/ import. */
const VIEW_GATES = new Set(['server/protocol.ts', 'server/shared.ts']);
/** The webview modules the extension host uses too: DOM-free words said the same in the status bar, quick picks and views. */
const HOST_SHARES_WITH_VIEWS = new Set(['webview/shared/sessionStatus.ts']);

export interface Import {
  readonly file: string;
  readonly line: number;
  readonly spec: string;
  /** Repository-relative path of the file imported (posix); null for a package or builtin. */
  readonly target: string | null;
  /** `import type` / `export type` (or every name marked `type`): erased at build time. */
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sourceFiles(rel, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

function resolve(file: string, spec: string, known: ReadonlySet<string>): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base])
    if (known.has(candidate) || fs.existsSync(path.join(ROOT, candidate))) return candidate;
  return base;
}

function allTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return false;
    if (clause.isTypeOnly) return true;
    if (clause.name !== undefined) return false;
    const bindings = clause.namedBindings;
    return (
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((e) => e.isTypeOnly)
    );
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** Every import of a source text: static imports, re-exports, `import()` and `require()`. */
export function importsOf(file: string, text: string, known: ReadonlySet<string>): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (node: ts.Node, spec: string, typeOnly: boolean): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    out.push({ file, line, spec, target: spec.startsWith('.') ? resolve(file, spec, known) : null, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node, node.moduleSpecifier.text, allTypeOnly(node));
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      const arg = node.arguments[0];
      if (arg !== undefined && ts.isStringLiteralLike(arg)) add(node, arg.text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const under = (file: string, dir: string): boolean => file.startsWith(`${dir}/`);

/** The rule an import breaks, in words, or null. */
export function brokenRule(imp: Import): string | null {
  const { file, spec, target } = imp;
  if (under(file, 'server/core')) {
    if (target === null) {
      if (CORE_BUILTINS.has(spec) || CORE_LIBRARIES.has(spec)) return null;
      return `server/core imports no I/O, editor or LSP library: '${spec}' is not one of ${[...CORE_BUILTINS, ...CORE_LIBRARIES].join(', ')}`;
    }
    return under(target, 'server/core') ? null : `server/core imports only its own files, not ${target}`;
  }
  if (under(file, 'server/simulate')) {
    if (target === null)
      return spec.startsWith('node:') || SIMULATE_LIBRARIES.has(spec)
        ? null
        : `server/simulate imports only node:* and ${[...SIMULATE_LIBRARIES].join(', ')}, not '${spec}'`;
    return under(target, 'server/simulate') ? null : `server/simulate imports nothing of the product, not ${target}`;
  }
  if (
    target !== null &&
    under(target, 'server/simulate') &&
    !under(file, 'server/cli') &&
    SIMULATOR_CHECKS.get(file)?.has(target) !== true
  )
    return `only the CLI's simulate command loads server/simulate, not ${file}`;
  if (under(file, 'src') || under(file, 'webview')) {
    if (target !== null && under(target, 'server') && !VIEW_GATES.has(target))
      return `${file.split('/')[0]}/ reaches server/ only through ${[...VIEW_GATES].join(' or ')}, not ${target}`;
    if (under(file, 'webview')) {
      if (target === null) return `a webview is a browser bundle of this repository's code only, not '${spec}'`;
      if (under(target, 'src')) return `webview/ does not import the extension host (${target})`;
    }
    if (under(file, 'src') && target !== null && under(target, 'webview') && !HOST_SHARES_WITH_VIEWS.has(target))
      return `src/ does not import a webview's code (${target}): they talk through messages`;
    return null;
  }
  if (under(file, 'server')) {
    if (target !== null && (under(target, 'src') || under(target, 'webview')))
      return `server/ does not import ${target}`;
    if (file === 'server/protocol.ts' && !imp.typeOnly)
      return `server/protocol.ts imports types only, not a value of '${spec}'`;
    if (under(file, 'server/capture') && target !== null) {
      if (target === 'server/protocol.ts' && !imp.typeOnly)
        return "server/capture imports the protocol's types only (`import type`)";
      if (under(target, 'server/lsp') || under(target, 'server/cli'))
        return `server/capture is below the language server and the CLI, it does not import ${target}`;
    }
    if (under(file, 'server/cli') && target !== null && under(target, 'server/lsp'))
      return `the CLI does not import the language server (${target})`;
    if (under(file, 'server/lsp') && target !== null && under(target, 'server/cli'))
      return `the language server does not import the CLI (${target})`;
  }
  return null;
}

/** Files server/shared.ts brings into a browser bundle (value imports, followed), with what breaks the rule. */
function sharedClosure(all: ReadonlyMap<string, readonly Import[]>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = ['server/shared.ts'];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of all.get(file) ?? []) {
      if (imp.typeOnly) continue;
      if (imp.target === null)
        problems.push(
          `${file}:${imp.line}: reached from server/shared.ts (bundled into the webviews), it may not import '${imp.spec}'`,
        );
      else if (file !== 'server/shared.ts' && !under(imp.target, 'server/core'))
        problems.push(
          `${file}:${imp.line}: reached from server/shared.ts, it may import only server/core, not ${imp.target}`,
        );
      else queue.push(imp.target);
    }
  }
  return problems;
}

function readTree(): Map<string, Import[]> {
  const files = SCOPES.flatMap((dir) => sourceFiles(dir));
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), known)]));
}

test('every import of server/, src/ and webview/ keeps the layering rules', () => {
  const all = readTree();
  assert.ok(all.size > 300, `read ${all.size} files`);
  const problems: string[] = [];
  for (const imports of all.values()) {
    for (const imp of imports) {
      const rule = brokenRule(imp);
      if (rule !== null) problems.push(`${imp.file}:${imp.line}: ${rule}`);
    }
  }
  problems.push(...sharedClosure(all));
  assert.deepEqual(
    problems,
    [],
    `layering rules broken (see the header of test/unit/layering.test.ts):\n${problems.join('\n')}`,
  );
});

test('the libraries the core and the simulator may import are dependencies of the package', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ]);
  for (const lib of [...CORE_LIBRARIES, ...SIMULATE_LIBRARIES])
    assert.ok(declared.has(lib), `${lib} is not in package.json`);
});

test('the rules catch a forbidden import of each kind', () => {
  const known = new Set([
    'server/core/a.ts',
    'server/capture/b.ts',
    'server/protocol.ts',
    'server/shared.ts',
    'server/lsp/c.ts',
    'server/simulate/d.ts',
    'webview/e/f.ts',
  ]);
  const broken = (file: string, text: string): (string | null)[] => importsOf(file, text, known).map(brokenRule);
  assert.match(String(broken('server/core/x.ts', "import { readFileSync } from 'node:fs';")[0]), /no I\/O/);
  assert.match(
    String(broken('server/core/x.ts', "import { createConnection } from 'vscode-languageserver';")[0]),
    /no I\/O, editor or LSP/,
  );
  assert.match(String(broken('server/core/x.ts', "const fs = require('fs');")[0]), /no I\/O/);
  assert.match(String(broken('server/core/x.ts', "import type { X } from '../capture/b';")[0]), /only its own files/);
  assert.match(String(broken('webview/e/g.ts', "import { a } from '../../server/core/a';")[0]), /only through/);
  assert.match(String(broken('src/views/x.ts', "import { c } from '../../server/lsp/c';")[0]), /only through/);
  assert.match(String(broken('webview/e/g.ts', "import * as fs from 'node:fs';")[0]), /browser bundle/);
  assert.match(String(broken('server/capture/x.ts', "import { METHODS } from '../protocol';")[0]), /types only/);
  assert.match(String(broken('server/capture/x.ts', "import { c } from '../lsp/c';")[0]), /below the language server/);
  assert.match(String(broken('server/simulate/x.ts', "import { a } from '../core/a';")[0]), /nothing of the product/);
  assert.match(String(broken('server/capture/x.ts', "const d = await import('../simulate/d');")[0]), /only the CLI/);
  assert.match(String(broken('server/protocol.ts', "import { a } from './core/a';")[0]), /types only/);
  assert.deepEqual(
    broken(
      'server/core/x.ts',
      "import path from 'node:path';\nimport { parse } from 'yaml';\nimport { a } from './a';",
    ),
    [null, null, null],
  );
  assert.deepEqual(
    broken(
      'server/capture/x.ts',
      "import type { SessionInfo } from '../protocol';\nimport { type RawOutput } from '../protocol';",
    ),
    [null, null],
  );
  assert.deepEqual(
    broken(
      'webview/e/g.ts',
      "import type { SessionInfo } from '../../server/protocol';\nimport { maxOf } from '../../server/shared';\nimport './f';",
    ),
    [null, null, null],
  );
});
