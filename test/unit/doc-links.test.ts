// The documents can be followed: every relative link of the repository's Markdown files names a
// file that exists (and, for a Markdown file, a heading it has), the README's images exist, and
// every `docs/<file>.md#heading` a code comment cites is a heading of that document.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const MARKDOWN = [
  'README.md',
  'CONTRIBUTING.md',
  'webview/README.md',
  'server/core/log/README.md',
  'test/editor/README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors !== undefined) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** Problems with a link `target` written in `from` (a repository-relative path). */
function linkProblem(from: string, target: string): string | null {
  if (/^[a-z]+:/i.test(target)) return null; // https:, mailto:
  const hash = target.indexOf('#');
  const filePart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? '' : target.slice(hash + 1);
  const file = filePart === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), filePart));
  if (!existsSync(path.join(ROOT, file))) return `${from}: ${target}: no file ${file}`;
  if (anchor !== '' && file.endsWith('.md') && !anchorsOf(file).has(anchor))
    return `${from}: ${target}: no heading #${anchor} in ${file}`;
  return null;
}

function linksOf(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1] ?? '');
  }
  return out;
}

test('every relative link of the Markdown documents names an existing file and heading', () => {
  const problems: string[] = [];
  let links = 0;
  for (const file of MARKDOWN) {
    for (const target of linksOf(readFileSync(path.join(ROOT, file), 'utf8'))) {
      links++;
      const problem = linkProblem(file, target);
      if (problem !== null) problems.push(problem);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(links > 30, `only ${links} links found: the link pattern no longer matches`);
});

test('the README shows screenshots that exist', () => {
  const images = [...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map(
    (m) => m[1] ?? '',
  );
  assert.ok(images.length >= 3, `${images.length} images`);
  for (const image of images) assert.ok(existsSync(path.join(ROOT, image)), image);
});

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${entry}`;
    if (entry === 'node_modules' || entry === 'fixtures') continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|mjs)$/.test(entry)) out.push(rel);
  }
  return out;
}

test('every docs/*.md#heading cited in the code is a heading of that document', () => {
  const problems: string[] = [];
  let citations = 0;
  for (const file of ['server', 'src', 'webview', 'scripts', 'test'].flatMap(sourceFiles)) {
    for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(docs\/[a-z-]+\.md)#([a-z0-9-]+)/g)) {
      citations++;
      const [, doc = '', anchor = ''] = m;
      if (!existsSync(path.join(ROOT, doc))) problems.push(`${file}: ${doc} does not exist`);
      else if (!anchorsOf(doc).has(anchor)) problems.push(`${file}: no heading #${anchor} in ${doc}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(citations >= 20, `only ${citations} citations found`);
});

test('no code comment cites an outside reference by section number', () => {
  const offenders: string[] = [];
  for (const file of ['server', 'src', 'webview', 'scripts', 'test'].flatMap(sourceFiles)) {
    if (file === 'test/unit/doc-links.test.ts') continue;
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/formats reference|§[A-J]\.?\d|metric-semantics\.md|vllm-omni-formats\.md/.test(line))
          offenders.push(`${file}:${i + 1}`);
      });
  }
  assert.deepEqual(offenders, []);
});
