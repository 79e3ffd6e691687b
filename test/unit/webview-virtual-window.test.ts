// Virtual-window math and the page cache of the request table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PageCache } from '../../webview/latencyPanel/table/pageCache';
import {
  pagesCovering,
  rowWindow,
  scrollTopToReveal,
  visibleRange,
} from '../../webview/latencyPanel/table/virtualWindow';

const base = { rowHeight: 22, viewportHeight: 440, overscan: 5 };

describe('row window', () => {
  test('at the top: rows 0..viewport/rowHeight plus overscan below', () => {
    const w = rowWindow({ ...base, scrollTop: 0, total: 100_000 });
    assert.deepEqual([w.first, w.end, w.offsetY, w.spacerHeight, w.scaled], [0, 25, 0, 2_200_000, false]);
  });

  test('in the middle: overscan on both sides, rows placed at their own offset', () => {
    const w = rowWindow({ ...base, scrollTop: 22 * 50_000 + 11, total: 100_000 });
    assert.equal(w.first, 50_000 - 5);
    assert.equal(w.end, 50_000 + 21 + 5);
    assert.equal(w.offsetY, w.first * 22);
  });

  test('overscan on one side only: rows prepared ahead of the scroll, few behind', () => {
    const w = rowWindow({
      scrollTop: 22 * 100,
      viewportHeight: 220,
      rowHeight: 22,
      total: 1000,
      overscan: 2,
      overscanAfter: 8,
    });
    assert.equal(w.first, 98);
    assert.equal(w.end, 118);
    const none = rowWindow({
      scrollTop: 22 * 100,
      viewportHeight: 220,
      rowHeight: 22,
      total: 1000,
      overscan: 0,
      overscanAfter: 0,
    });
    assert.deepEqual([none.first, none.end], [100, 110]);
  });

  test('at the end: clamped to the total', () => {
    const w = rowWindow({ ...base, scrollTop: 22 * 100_000, total: 100_000 });
    assert.equal(w.end, 100_000);
    assert.ok(w.first < w.end);
  });

  test('empty and tiny lists', () => {
    assert.deepEqual(rowWindow({ ...base, scrollTop: 0, total: 0 }), {
      first: 0,
      end: 0,
      offsetY: 0,
      spacerHeight: 0,
      scaled: false,
    });
    const w = rowWindow({ ...base, scrollTop: 0, total: 3 });
    assert.deepEqual([w.first, w.end], [0, 3]);
  });

  test('the DOM window stays small whatever the total', () => {
    for (const total of [1_000, 100_000, 10_000_000]) {
      const w = rowWindow({ ...base, scrollTop: 123_456, total, maxSpacerPx: 8_000_000 });
      assert.ok(w.end - w.first <= 440 / 22 + 1 + 10, `${w.end - w.first} rows`);
    }
  });

  test('scaled mode: the spacer is capped, the first and last rows are reachable', () => {
    const input = { ...base, total: 10_000_000, maxSpacerPx: 1_000_000 };
    const top = rowWindow({ ...input, scrollTop: 0 });
    assert.equal(top.spacerHeight, 1_000_000);
    assert.equal(top.scaled, true);
    assert.equal(top.first, 0);
    assert.equal(top.offsetY, 0);
    const end = rowWindow({ ...input, scrollTop: 1_000_000 - 440 });
    assert.equal(end.end, 10_000_000);
    // The last row's bottom edge sits on the viewport's bottom edge.
    const lastBottom = end.offsetY + (10_000_000 - end.first) * 22;
    assert.ok(Math.abs(lastBottom - 1_000_000) < 1e-3, String(lastBottom));
    const mid = visibleRange({ ...input, scrollTop: (1_000_000 - 440) / 2 });
    assert.ok(Math.abs(mid.first - (10_000_000 * 22 - 440) / 2 / 22) <= 1);
  });

  test('revealing a row: null when in view, else the nearest scrollTop', () => {
    const input = { ...base, total: 1_000, scrollTop: 220 };
    assert.equal(scrollTopToReveal(input, 12), null);
    assert.equal(scrollTopToReveal(input, 5), 110);
    assert.equal(scrollTopToReveal(input, 40), 41 * 22 - 440);
  });

  test('revealing in scaled mode puts the row in the window', () => {
    const input = { ...base, total: 10_000_000, maxSpacerPx: 1_000_000, scrollTop: 0 };
    const top = scrollTopToReveal(input, 6_000_000) as number;
    const range = visibleRange({ ...input, scrollTop: top });
    assert.ok(range.first <= 6_000_000 && 6_000_000 < range.end, JSON.stringify(range));
  });

  test('pages covering a window', () => {
    assert.deepEqual(pagesCovering(0, 25, 200), [0]);
    assert.deepEqual(pagesCovering(190, 230, 200), [0, 1]);
    assert.deepEqual(pagesCovering(5, 5, 200), []);
  });
});

describe('page cache', () => {
  test('asks once per page, stores answers, serves rows by index', () => {
    const c = new PageCache<string>(2);
    assert.deepEqual(c.wanted([0, 1]), [0, 1]);
    assert.deepEqual(c.request(1, 1), { offset: 2, limit: 2 });
    assert.deepEqual(c.wanted([0, 1]), [0]);
    assert.deepEqual(c.accept(1, ['c', 'd'], 10), { page: 1, total: 10 });
    assert.equal(c.row(3), 'd');
    assert.equal(c.row(0), undefined);
    assert.equal(c.accept(99, ['x'], 1), null);
  });

  test('a new query drops answers to the old one', () => {
    const c = new PageCache<string>(2);
    c.request(1, 0);
    c.reset();
    assert.equal(c.accept(1, ['a', 'b'], 2), null);
    assert.equal(c.row(0), undefined);
    assert.deepEqual(c.wanted([0]), [0]);
  });

  test('stale pages stay on screen and are asked for again', () => {
    const c = new PageCache<string>(2);
    c.request(1, 0);
    c.accept(1, ['a', 'b'], 2);
    c.markStale();
    assert.equal(c.row(0), 'a');
    assert.deepEqual(c.wanted([0]), [0]);
    c.request(2, 0);
    assert.deepEqual(c.wanted([0]), []);
    c.accept(2, ['A', 'b'], 3);
    assert.equal(c.row(0), 'A');
  });

  test('an older epoch answer does not overwrite a newer one', () => {
    const c = new PageCache<string>(1);
    c.request(1, 0);
    c.markStale();
    c.request(2, 0);
    c.accept(2, ['new'], 1);
    c.accept(1, ['old'], 1);
    assert.equal(c.row(0), 'new');
  });

  test('least recently used pages are evicted', () => {
    const c = new PageCache<number>(1, 2);
    for (let p = 0; p < 3; p++) {
      c.request(p + 1, p);
      c.accept(p + 1, [p], 3);
      if (p === 1) c.row(0); // touch page 0
    }
    assert.equal(c.cachedPageCount(), 2);
    assert.equal(c.row(0), 0);
    assert.equal(c.row(1), undefined);
  });

  test('failed requests can be asked again', () => {
    const c = new PageCache<string>(1);
    c.request(1, 0);
    c.failAll();
    assert.equal(c.pendingCount(), 0);
    assert.deepEqual(c.wanted([0]), [0]);
  });
});
