// A webview page whose script never says `ready` is loaded again (src/views/pageReadyWatchdog.ts):
// the side bar's Latency Summary left blank in a fresh window, its script never run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageReadyWatchdog } from '../../src/views/pageReadyWatchdog';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const WAIT = 40;

/** A page that says `ready` on its `readyOnLoad`th load (never for 0). */
function page(readyOnLoad: number, visible = true) {
  const state = { loads: 1, visible };
  const watchdog: PageReadyWatchdog = new PageReadyWatchdog(
    {
      reload: () => {
        state.loads++;
        if (state.loads === readyOnLoad) setTimeout(() => watchdog.ready(), 5);
      },
      isVisible: () => state.visible,
    },
    WAIT,
    2,
  );
  return { state, watchdog };
}

test('a page whose script never ran is loaded again until it says ready', async () => {
  const { state, watchdog } = page(2);
  watchdog.loaded();
  await sleep(WAIT * 5);
  assert.equal(state.loads, 2, 'loaded once more, then ready: no further load');
  watchdog.dispose();
});

test('a page that says ready is left alone; one that never does is reloaded at most twice in a row', async () => {
  const ok = page(0);
  ok.watchdog.loaded();
  ok.watchdog.ready();
  await sleep(WAIT * 3);
  assert.equal(ok.state.loads, 1);
  ok.watchdog.dispose();

  const dead = page(0);
  dead.watchdog.loaded();
  await sleep(WAIT * 6);
  assert.equal(dead.state.loads, 3);
  dead.watchdog.dispose();
});

test('a hidden view is not reloaded; shown again (VS Code reloads it) it is waited for anew', async () => {
  const { state, watchdog } = page(0, false);
  watchdog.loaded();
  await sleep(WAIT * 3);
  assert.equal(state.loads, 1);
  state.visible = true;
  watchdog.loaded();
  await sleep(WAIT * 1.6);
  assert.equal(state.loads, 2);
  // A kept page (a panel) that already said ready is not waited for when shown again.
  watchdog.ready();
  watchdog.shown();
  await sleep(WAIT * 3);
  assert.equal(state.loads, 2);
  watchdog.dispose();
});
