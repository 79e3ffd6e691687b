// Escaping and trust boundaries of the webviews: no markup sinks in webview code, a
// strict CSP shell with a fresh nonce, messages from a page checked before use, and
// stored state sanitized before use.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseWebviewMessage } from '../../src/views/messageGuard';
import { bundleAssets, pointSourceMap } from '../../src/views/webviewBundle';
import {
  contentSecurityPolicy,
  createNonce,
  escapeHtml,
  fitsInline,
  renderWebviewHtml,
} from '../../src/views/webviewHtml';
import { DEFAULT_PANEL_STATE, forNewSession, sanitizePanelState } from '../../webview/latencyPanel/state';
import type { TrendPoint } from '../../webview/sidePanel/state';
import { pushTrend, sanitizeSideState, TREND_LENGTH, TREND_SESSIONS } from '../../webview/sidePanel/state';

const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

describe('no markup sinks', () => {
  test('webview code builds DOM from text only (no innerHTML, outerHTML, insertAdjacentHTML, document.write, eval)', () => {
    const sink =
      /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|srcdoc|createContextualFragment|DOMParser/;
    const files = [...sources('webview'), ...sources('src/views')];
    assert.ok(files.length > 20);
    for (const f of files) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/\/\/.*$/gm, '');
      assert.doesNotMatch(text, sink, f);
    }
  });

  test('style attributes are never written as strings (CSP blocks them; CSSOM is used)', () => {
    for (const f of sources('webview')) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      assert.doesNotMatch(text, /setAttribute\(\s*['"]style['"]/, f);
    }
  });
});

describe('HTML shell', () => {
  const page = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'abc123',
    script: { uri: 'https://x/dist/webview/latencyPanel.js' },
    styles: [{ uri: 'https://x/dist/webview/latencyPanel.css' }],
    title: 'Stage Lens',
    view: 'latencyPanel',
  };

  test('strict CSP: nothing by default, scripts only by nonce, styles/images/fonts only from the webview source', () => {
    assert.equal(
      contentSecurityPolicy(page.cspSource, 'N'),
      `default-src 'none'; script-src 'nonce-N'; style-src ${page.cspSource} 'nonce-N'; img-src ${page.cspSource} data:; font-src ${page.cspSource}`,
    );
    const html = renderWebviewHtml(page);
    assert.match(
      html,
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-abc123&#39;/,
    );
    // No text read: loaded from the URIs.
    assert.match(html, /<script nonce="abc123" src="https:\/\/x\/dist\/webview\/latencyPanel.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/x\/dist\/webview\/latencyPanel.css" nonce="abc123">/);
    // Exactly one script, no inline code, nothing remote besides the given URIs.
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.doesNotMatch(html, /<script[^>]*>[^<]/);
    assert.doesNotMatch(html.replaceAll(page.cspSource, '').replaceAll('https://x/dist/webview/', ''), /https?:\/\//);
  });

  test("the bundles' code and styles are put into the page under the nonce, each as it was built", () => {
    const dist = path.join(ROOT, 'dist/webview');
    for (const bundle of ['sidePanel', 'latencyPanel', 'compare'] as const) {
      const assets = bundleAssets(dist, bundle, (f) => `https://x/dist/webview/${f}`);
      const html = renderWebviewHtml({ ...page, ...assets, view: bundle });
      const js = fs.readFileSync(path.join(dist, `${bundle}.js`), 'utf8');
      const css = fs.readFileSync(path.join(dist, `${bundle}.css`), 'utf8');
      assert.ok(fitsInline(js, 'script') && fitsInline(css, 'style'), bundle);
      // Nothing loaded from a URI; one script element, one style element, both under the nonce.
      assert.doesNotMatch(html, /<script[^>]* src=|<link /, bundle);
      assert.equal(html.match(/<script nonce="abc123">/g)?.length, 1, bundle);
      assert.equal(html.match(/<style nonce="abc123">/g)?.length, 1, bundle);
      const code = html.slice(html.indexOf('<script nonce="abc123">') + 23, html.lastIndexOf('</script>'));
      const styles = html.slice(html.indexOf('<style nonce="abc123">') + 22, html.indexOf('</style>'));
      // The bundle as built, but for a development build's source map, named by its URI.
      const unmapped = (text: string, file: string): string => text.replace(`https://x/dist/webview/${file}`, file);
      assert.equal(unmapped(code, `${bundle}.js.map`), js, bundle);
      assert.equal(unmapped(styles, `${bundle}.css.map`), css, bundle);
    }
  });

  test('a text that would end its element early, or open an HTML comment, is loaded from its URI instead', () => {
    for (const text of ['a = "</script><img src=x>"', 'a = "</SCRIPT "', 'a = 1 <!-- 2']) {
      assert.equal(fitsInline(text, 'script'), false, text);
      const html = renderWebviewHtml({ ...page, script: { uri: 'https://x/a.js', text } });
      assert.ok(html.includes('<script nonce="abc123" src="https://x/a.js"></script>'), text);
      assert.ok(!html.includes(text), text);
    }
    const css = 'p { color: red } </style><script>alert(1)</script>';
    const html = renderWebviewHtml({ ...page, styles: [{ uri: 'https://x/a.css', text: css }] });
    assert.ok(html.includes('<link rel="stylesheet" href="https://x/a.css" nonce="abc123">'));
    assert.doesNotMatch(html, /<script>alert/);
    // The bundler writes `</script` in strings as `<\/script`: that stays in the page.
    assert.equal(fitsInline('a = "<\\/script>"', 'script'), true);
  });

  test('a source map comment names the map by its URI; anything else in it stays', () => {
    const uriOf = (f: string): string => `https://r/${f}`;
    assert.equal(
      pointSourceMap('x();\n//# sourceMappingURL=a.js.map\n', uriOf, 'js'),
      'x();\n//# sourceMappingURL=https://r/a.js.map\n',
    );
    assert.equal(
      pointSourceMap('p{}\n/*# sourceMappingURL=a.css.map */', uriOf, 'css'),
      'p{}\n/*# sourceMappingURL=https://r/a.css.map */',
    );
    for (const text of [
      'x();',
      'x();\n//# sourceMappingURL=data:application/json;base64,e30=',
      '//# sourceMappingURL=../up.js.map',
    ])
      assert.equal(pointSourceMap(text, uriOf, 'js'), text);
  });

  test('an unreadable bundle is loaded from its URI', () => {
    const assets = bundleAssets(path.join(ROOT, 'no-such-dir'), 'sidePanel', (f) => `https://x/${f}`);
    assert.deepEqual(assets, {
      script: { uri: 'https://x/sidePanel.js' },
      styles: [{ uri: 'https://x/sidePanel.css' }],
    });
  });

  test('a fresh, unguessable nonce per load', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => createNonce()));
    assert.equal(nonces.size, 100);
    for (const n of nonces) assert.match(n, /^[A-Za-z0-9+/]{32}$/);
  });

  test('attribute values are escaped', () => {
    assert.equal(
      escapeHtml(`"><img src=x onerror=alert(1)>'&`),
      '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;',
    );
    const html = renderWebviewHtml({
      ...page,
      title: '<script>alert(1)</script>',
      script: { uri: 'https://x/a.js" onload="alert(1)' },
    });
    assert.doesNotMatch(html, /<script>alert/);
    assert.doesNotMatch(html, /" onload="/);
  });
});

describe('messages from a page', () => {
  test('well-formed messages pass; limits are clamped', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryRequests',
        seq: 3,
        params: { offset: -5, limit: 1e6, sortBy: '1.prefillMs', descending: true, stageId: 1 },
      }),
      {
        type: 'queryRequests',
        seq: 3,
        params: { offset: 0, limit: 1000, sortBy: '1.prefillMs', descending: true, stageId: 1 },
      },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'openLatencyPanel', filter: { findingCode: 'cold-start' } }), {
      type: 'openLatencyPanel',
      filter: { findingCode: 'cold-start' },
    });
    assert.deepEqual(
      parseWebviewMessage({
        type: 'queryHistogram',
        seq: 1,
        params: { stageKey: '1', metric: 'field:stage_gen_time_ms', bins: 9999 },
      }),
      {
        type: 'queryHistogram',
        seq: 1,
        params: { stageKey: '1', metric: 'field:stage_gen_time_ms', bins: 500 },
      },
    );
    // The Each request chart's question carries the scope of every view; the host asks the server with it.
    assert.deepEqual(parseWebviewMessage({ type: 'querySpans', seq: 7, scope: { boot: 2, excludeCold: true } }), {
      type: 'querySpans',
      seq: 7,
      scope: { boot: 2, excludeCold: true },
    });
    assert.deepEqual(parseWebviewMessage({ type: 'querySpans', seq: 8 }), { type: 'querySpans', seq: 8 });
  });

  test('anything else is dropped', () => {
    for (const bad of [
      null,
      'ready',
      { type: 'nope' },
      { type: 'runCommand', command: 'workbench.action.terminal.sendSequence' },
      { type: 'queryRequests', seq: '1', params: { offset: 0, limit: 10 } },
      { type: 'queryRequests', seq: 1, params: { offset: 0.5, limit: 10 } },
      { type: 'queryRequests', seq: 1, params: { offset: 0, limit: 10, stageId: '1' } },
      { type: 'queryRequest', requestId: 42 },
      { type: 'queryHistogram', seq: 1, params: { stageKey: '1', metric: 'rm -rf', bins: 10 } },
      { type: 'openLatencyPanel', filter: { stageId: 'x' } },
      { type: 'querySpans' },
      { type: 'querySpans', seq: 1, scope: { boot: 'all' } },
      { type: 'querySpans', seq: 1, scope: { fromMs: 'yesterday' } },
    ]) {
      assert.equal(parseWebviewMessage(bad), null, JSON.stringify(bad));
    }
  });
});

describe('stored state', () => {
  test('the latency panel keeps only well-formed fields', () => {
    assert.deepEqual(sanitizePanelState(undefined), DEFAULT_PANEL_STATE);
    assert.deepEqual(sanitizePanelState('junk'), DEFAULT_PANEL_STATE);
    const s = sanitizePanelState({
      tab: 'histograms',
      sortBy: '1.prefillMs',
      descending: false,
      scrollTop: -4,
      stageId: 1.5,
      selectedIndex: 3,
      histogram: { metric: 'x', bins: 1e6 },
      spansView: { t0: 5, t1: 2 },
      percentile: 'p42',
    });
    assert.equal(s.tab, 'histograms');
    assert.equal(s.sortBy, '1.prefillMs');
    assert.equal(s.descending, false);
    assert.equal(s.scrollTop, 0);
    assert.equal(s.stageId, null);
    assert.equal(s.selectedIndex, 3);
    assert.deepEqual(s.histogram, DEFAULT_PANEL_STATE.histogram);
    assert.equal(s.spansView, null);
    assert.equal(s.percentile, 'p50');
    // One server of a merged log: its name, else every server.
    assert.equal(
      sanitizePanelState({ scope: { server: 'pod/vllm-omni-0/vllm', boot: 2 } }).scope.server,
      'pod/vllm-omni-0/vllm',
    );
    assert.equal(sanitizePanelState({ scope: { server: 'pod/vllm-omni-0/vllm', boot: 2 } }).scope.boot, 2);
    for (const server of ['', 7, null, { name: 'pod/a' }])
      assert.equal(sanitizePanelState({ scope: { server } }).scope.server, null, JSON.stringify(server));
  });

  test('a new session forgets rows and selection but keeps view choices', () => {
    const s = forNewSession(
      {
        ...DEFAULT_PANEL_STATE,
        sessionId: 'a',
        tab: 'timeline',
        sortBy: 'requestId',
        scrollTop: 500,
        selectedIndex: 4,
        openRequestId: 'r',
        filterText: 'x',
      },
      'b',
    );
    assert.deepEqual(
      [s.sessionId, s.tab, s.sortBy, s.scrollTop, s.selectedIndex, s.openRequestId, s.filterText],
      ['b', 'requests', 'requestId', 0, -1, null, ''],
    );
    // The boot and server picked are the old session's: the new one shows every request; exclude cold stays.
    const picked = forNewSession(
      {
        ...DEFAULT_PANEL_STATE,
        sessionId: 'a',
        scope: { fromMs: 1, toMs: 2, excludeCold: true, boot: 2, server: 'pod/a' },
      },
      'b',
    );
    assert.deepEqual(picked.scope, { fromMs: null, toMs: null, excludeCold: true, boot: null, server: null });
  });

  test('the side panel keeps well-formed trends of at most a few sessions, each bounded', () => {
    const s = sanitizeSideState({
      percentile: 'p99',
      trends: [
        { sessionId: 'a', points: [{ n: 1, p50: 1, p90: 2, p99: null }, { n: 'x' }, null] },
        { sessionId: 7, points: [] },
        null,
        { sessionId: 'b', points: 'no' },
        { sessionId: 'a', points: [{ n: 3, p50: 3, p90: 3, p99: 3 }] },
      ],
    });
    // A session listed twice keeps its later entry, which is the one updated last.
    assert.deepEqual(s, {
      percentile: 'p99',
      trends: [
        { sessionId: 'b', points: [] },
        { sessionId: 'a', points: [{ n: 3, p50: 3, p90: 3, p99: 3 }] },
      ],
      boot: null,
      server: null,
    });
    // A boot picked: a session id and a boot number, else none.
    assert.deepEqual(sanitizeSideState({ boot: { sessionId: 'a', boot: 2 } }).boot, { sessionId: 'a', boot: 2 });
    for (const boot of [{ sessionId: 'a', boot: -1 }, { sessionId: 'a', boot: 1.5 }, { boot: 2 }, 'boot 2'])
      assert.equal(sanitizeSideState({ boot }).boot, null);
    // A server picked: a session id and a server's name (the log's text, kept as is), else none.
    assert.deepEqual(sanitizeSideState({ server: { sessionId: 'a', server: '<img src=x onerror=alert(1)>' } }).server, {
      sessionId: 'a',
      server: '<img src=x onerror=alert(1)>',
    });
    for (const server of [{ sessionId: 'a', server: '' }, { sessionId: 'a', server: 3 }, { server: 'pod/a' }, 'pod/a'])
      assert.equal(sanitizeSideState({ server }).server, null);
    let t: readonly TrendPoint[] = [{ n: 1, p50: 1, p90: 2, p99: null }];
    t = pushTrend(t, { n: 1, p50: 5, p90: 5, p99: 5 });
    assert.equal(t.length, 1);
    for (let i = 2; i < 100; i++) t = pushTrend(t, { n: i, p50: i, p90: i, p99: i });
    assert.equal(t.length, TREND_LENGTH);
    assert.equal(t[t.length - 1]?.n, 99);
    const many = sanitizeSideState({
      trends: Array.from({ length: 20 }, (_, i) => ({ sessionId: `s${i}`, points: t })),
    });
    assert.deepEqual(
      many.trends.map((e) => e.sessionId),
      ['s12', 's13', 's14', 's15', 's16', 's17', 's18', 's19'],
    );
    assert.equal(many.trends.length, TREND_SESSIONS);
    assert.ok(many.trends.every((e) => e.points.length === TREND_LENGTH));
    // What the stored state costs at most: a few tens of kilobytes.
    assert.ok(JSON.stringify(many).length < 40_000, `${JSON.stringify(many).length} characters`);
  });
});
