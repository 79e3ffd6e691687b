import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ONE_SHOT_INLINING_BUDGET, oneShotFlags } from '../../server/cli/oneShotFlags';

test('one-shot commands get the smaller inlining budget, unless the process was started with that flag', () => {
  assert.equal(ONE_SHOT_INLINING_BUDGET, 300);
  assert.equal(oneShotFlags([]), '--max-inlined-bytecode-size-cumulative=300');
  assert.equal(
    oneShotFlags(['--enable-source-maps', '--max-old-space-size=4096']),
    '--max-inlined-bytecode-size-cumulative=300',
  );
  // The user's own setting stands, with dashes or underscores (V8 reads both).
  assert.equal(oneShotFlags(['--max-inlined-bytecode-size-cumulative=920']), null);
  assert.equal(oneShotFlags(['--max_inlined_bytecode_size_cumulative=100']), null);
  // A different flag with a common prefix is not the user's setting of this one.
  assert.equal(oneShotFlags(['--max-inlined-bytecode-size=460']), '--max-inlined-bytecode-size-cumulative=300');
});
