// How the findings about a whole log word a view of some of its requests: the log's count first,
// then how many of them the view holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logRequestsReadText, requestScopeWords } from '../../server/core/analysis/requestScope';

test('a view is named by its boot, its window and cold starts left out; the whole log has no name', () => {
  assert.equal(requestScopeWords({}), null);
  assert.equal(requestScopeWords({ window: false, excludeCold: false }), null);
  assert.equal(requestScopeWords({ boot: 0 }), 'boot 0');
  assert.equal(requestScopeWords({ window: true }), 'the window');
  assert.equal(requestScopeWords({ boot: 2, window: true }), 'the window of boot 2');
  assert.equal(requestScopeWords({ excludeCold: true }), 'the scope (cold starts left out)');
  assert.equal(requestScopeWords({ boot: 2, excludeCold: true }), 'boot 2 (cold starts left out)');
});

test("the log's requests before a break, and how many of them a view holds", () => {
  assert.equal(logRequestsReadText(8, null), 'the 8 requests before it are read');
  assert.equal(
    logRequestsReadText(8, { words: 'boot 2', requests: 2 }),
    "the log's 8 requests before it are read, 2 of them in boot 2",
  );
  assert.equal(
    logRequestsReadText(8, { words: 'the window', requests: 8 }),
    "the log's 8 requests before it are read, all of them in the window",
  );
  assert.equal(
    logRequestsReadText(8, { words: 'boot 0', requests: 0 }),
    "the log's 8 requests before it are read, none of them in boot 0",
  );
  assert.equal(
    logRequestsReadText(1, { words: 'the window', requests: 1 }),
    "the log's 1 request before it is read, in the window",
  );
  assert.equal(
    logRequestsReadText(1, { words: 'the window', requests: 0 }),
    "the log's 1 request before it is read, not in the window",
  );
  assert.equal(logRequestsReadText(0, { words: 'boot 1', requests: 0 }), 'no request came before it');
});
