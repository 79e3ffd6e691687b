// `stage-lens compare --fail-if` with ';'-separated rule lists, as a CI job passes them: a value
// with no rule in it (an unset `$RULES` in `--fail-if "$RULES;"`) or with an empty rule before,
// between or after its ';' is refused (exit 2, the value, a caret under the empty part, the rule
// grammar), as an empty --fail-if is, never read as fewer rules and passed. The built
// dist/cli.js as a real child process, on a sample log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';

const SAMPLE = path.resolve(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log');
const GRAMMAR = /\n\nRule grammar:\n {2}rule {6}= <scope>\.<metric>\.<quantile> <op> <threshold>/;
const NO_RULE = `no rule in it, only ';': give at least one rule, or leave --fail-if out (an unset variable, as in "$RULES;", leaves none)`;
const EMPTY = `: every ';' separates two rules, and an empty one is refused, not skipped (an unset variable?): write the rule or remove the ';'`;

test('a --fail-if value with no rule in it (";", ";;") exits 2 naming the value and the grammar, nothing on stdout', () => {
  for (const value of [';', ';;', ' ; ']) {
    const r = cli(['compare', SAMPLE, SAMPLE, '--fail-if', value]);
    assert.equal(r.status, 2, value);
    assert.equal(r.stdout, '', value);
    assert.ok(
      r.stderr.startsWith(
        `stage-lens compare: malformed --fail-if '${value}': ${NO_RULE}\n    ${value}\n    ${'^'.repeat(value.length)}\n`,
      ),
      r.stderr,
    );
    assert.match(r.stderr, GRAMMAR);
  }
  // As the empty value is.
  const empty = cli(['compare', SAMPLE, SAMPLE, '--fail-if', '']);
  assert.equal(empty.status, 2);
  assert.ok(empty.stderr.startsWith("stage-lens compare: malformed rule '': empty rule\n"), empty.stderr);
});

test('an empty rule before, between or after the ";" of a list of good rules exits 2 with a caret under it; the list without it is checked (exit 0)', () => {
  const a = 'request.e2e.p99 > +10%';
  const b = 'stage0.queued.p50 > 1s';
  const cases: [string, string, string][] = [
    [`${a};`, "after the last ';'", `${' '.repeat(a.length)}^`],
    [`; ${b}`, "before the first ';'", '^'],
    [`${a}; ;${b}`, "between two ';'", `${' '.repeat(a.length)}^^^`],
  ];
  for (const [value, where, caret] of cases) {
    const r = cli(['compare', SAMPLE, SAMPLE, '--fail-if', value, '--fail-if', b]);
    assert.equal(r.status, 2, value);
    assert.equal(r.stdout, '', value);
    assert.ok(
      r.stderr.startsWith(
        `stage-lens compare: malformed --fail-if '${value}': empty rule ${where}${EMPTY}\n    ${value}\n    ${caret}\n`,
      ),
      r.stderr,
    );
    assert.match(r.stderr, GRAMMAR);
  }
  const ok = cli(['compare', SAMPLE, SAMPLE, '--fail-if', `${a}; ${b}`]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(
    ok.stdout,
    /\nRules \(--fail-if\)\n +ok +request\.e2e\.p99 > \+10%: .*\n +ok +stage0\.queued\.p50 > 1s: /,
  );
});
