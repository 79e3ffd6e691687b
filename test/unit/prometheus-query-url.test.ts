// The Prometheus base URL from what a user pastes in the setting or the input box.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrometheusUrl, PrometheusApi, PrometheusConfigError } from '../../server/capture/prometheusApi';

function base(text: string): string {
  const r = checkPrometheusUrl(text);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.url.href;
}

describe('checkPrometheusUrl', () => {
  it('keeps a base URL and its path prefix, ending in /', () => {
    assert.equal(base('http://prom:9090'), 'http://prom:9090/');
    assert.equal(base(' https://metrics.example.org/prometheus/ '), 'https://metrics.example.org/prometheus/');
    assert.equal(base('prom.internal:9090'), 'http://prom.internal:9090/', 'no scheme: http');
  });

  it('strips UI and API paths pasted from the browser', () => {
    assert.equal(base('http://prom:9090/graph?g0.expr=up'), 'http://prom:9090/');
    assert.equal(base('http://prom:9090/query'), 'http://prom:9090/');
    assert.equal(base('http://h/prometheus/api/v1/query?query=up'), 'http://h/prometheus/');
    assert.equal(base('http://prom:9090/api/v1/'), 'http://prom:9090/');
    assert.equal(base('http://prom:9090/targets#pool'), 'http://prom:9090/');
  });

  it('refuses what can never be a Prometheus server, with a message', () => {
    const ftp = checkPrometheusUrl('ftp://prom:9090');
    assert.deepEqual(ftp, {
      ok: false,
      message: 'Prometheus is reached over http:// or https://; "ftp://prom:9090" uses ftp:',
    });
    const junk = checkPrometheusUrl('http://exa mple:9090');
    assert.equal(junk.ok, false);
    assert.match(
      junk.ok ? '' : junk.message,
      /is not a valid URL \(expected something like http:\/\/127\.0\.0\.1:9090\)/,
    );
    assert.throws(() => new PrometheusApi('file:///etc/passwd'), PrometheusConfigError);
    assert.throws(() => new PrometheusApi('http://p:9090', { timeoutMs: 0 }), /timeoutMs must be a positive number/);
  });
});
