// Log-derived text in VS Code's own UI (plainText.ts): after withoutIcons no `$(name)` is left for
// a quick pick or the status bar to draw as a codicon, after withoutLinks no `[label](target)` for
// a notification to draw as a link; both read as the text did. The grammars below are the ones
// VS Code documents: `$(name)` / `$(name~modifier)` with a backslash before it to escape it, and a
// notification link `[label](https://…)`, `(command:…)` or `(file:…)`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutIcons, withoutLinks } from '../../server/core/plainText';

/** A codicon VS Code would draw: `$(name)` not escaped by a backslash before it. */
const DRAWN_ICON = /(?<!\\)\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/;
/** A link a notification would draw. */
const DRAWN_LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+\)/i;

const HOSTILE = [
  '$(zap) run.log',
  'pod/$(loading~spin)-0/vllm',
  '$(a)$(b) $(c)',
  'already \\$(escaped) and $(not)',
  '[Fix](command:workbench.action.openSettings)/qwen3_tts.yaml',
  'see [the docs](https://example.com/x) and [local](file:///etc/passwd)',
  '[$(zap) both](command:x)',
];

test('withoutIcons leaves no codicon to draw; VS Code shows the text as written', () => {
  assert.equal(withoutIcons('$(zap) run.log'), '\\$(zap) run.log');
  assert.equal(withoutIcons('a $(b) c $(d)'), 'a \\$(b) c \\$(d)');
  // Escaped already: one more backslash, so VS Code shows the backslash that was written.
  assert.equal(withoutIcons('\\$(x)'), '\\\\$(x)');
  for (const text of HOSTILE) {
    assert.ok(DRAWN_ICON.test(text) || !text.includes('$('), `the sample draws an icon: ${text}`);
    assert.doesNotMatch(withoutIcons(text), DRAWN_ICON, text);
  }
  // Text without `$(` is passed as it is.
  for (const text of ['run.log', 'cost $5 (est.)', 'a) $ (b']) assert.equal(withoutIcons(text), text);
});

test('withoutLinks leaves no link to draw and loses no character', () => {
  for (const text of HOSTILE.filter((t) => DRAWN_LINK.test(t))) {
    const shown = withoutLinks(text);
    assert.doesNotMatch(shown, DRAWN_LINK, text);
    assert.equal(shown.replace(/\u200b/g, ''), text);
  }
  assert.equal(withoutLinks('[Fix](command:x)'), '[Fix]\u200b(command:x)');
  for (const text of ['run.log', 'f(x) [1] (2)', 'a] (b']) assert.equal(withoutLinks(text), text);
});
