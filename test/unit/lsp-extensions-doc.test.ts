// docs/lsp-extensions.md (the custom requests for users of other editors) is kept in step
// with server/protocol.ts: the page records a hash of the protocol's "method table" section,
// as rust-analyzer's lsp-extensions.md does for its lsp_ext.rs. When the section changes, this
// test fails and prints the new hash: update the page for the change, then its hash line.
// It also checks that the page names every method of the section and no other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PROTOCOL = 'server/protocol.ts';
const DOC = 'docs/lsp-extensions.md';
const SECTION_RULE = /^\/\/ -{10,} (.+)$/;
const HASH_LINE = /^protocol method table hash: ([0-9a-f]+)$/m;

/** The lines from the "method table" section header to the next section header. */
export function methodSection(protocol: string): string {
  const lines = protocol.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => SECTION_RULE.exec(line)?.[1] === 'method table');
  assert.ok(start >= 0, `${PROTOCOL} has no "method table" section`);
  const length = lines.slice(start + 1).findIndex((line) => SECTION_RULE.test(line));
  return lines.slice(start, length < 0 ? undefined : start + 1 + length).join('\n');
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

test(`${DOC} was updated for the current method table of ${PROTOCOL}`, () => {
  const expected = hashOf(methodSection(read(PROTOCOL)));
  const recorded = HASH_LINE.exec(read(DOC))?.[1];
  assert.equal(
    recorded,
    expected,
    `${PROTOCOL}'s method table changed: update ${DOC} for the change (params, result, semantics), then set its line to\nprotocol method table hash: ${expected}`,
  );
});

test(`${DOC} describes every method of ${PROTOCOL} and no other`, () => {
  const inProtocol = [...methodSection(read(PROTOCOL)).matchAll(/^\s+'(stageLens\/\w+)':/gm)].map((m) => m[1]).sort();
  const inDoc = [...new Set([...read(DOC).matchAll(/^\| `(stageLens\/\w+)` \|/gm)].map((m) => m[1]))].sort();
  assert.ok(inProtocol.length >= 30, `found ${inProtocol.length} methods`);
  assert.deepEqual(inDoc, inProtocol);
});

test('the hash changes when a method line changes', () => {
  const section = methodSection(read(PROTOCOL));
  assert.notEqual(hashOf(section), hashOf(section.replace("'stageLens/stop'", "'stageLens/halt'")));
  assert.ok(!methodSection(read(PROTOCOL)).includes('webview messages'), 'the section ends at the next section header');
});
