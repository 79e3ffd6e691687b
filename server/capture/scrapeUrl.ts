// Which URLs a scrape source accepts: http(s) only, so a mistyped `file:` or `ftp:` URL
// fails at once with a clear message instead of at the first scrape.

export type ScrapeUrlCheck =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string };

export function checkScrapeUrl(text: string): ScrapeUrlCheck {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return {
      ok: false,
      message: `"${text}" is not a valid URL (expected something like http://127.0.0.1:8000/metrics)`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `Only http:// and https:// URLs can be scraped; "${text}" uses ${url.protocol}` };
  }
  // vLLM serves the metrics at /metrics; a bare http://host:port means that.
  if (url.pathname === '/' && url.search === '') url.pathname = '/metrics';
  return { ok: true, url };
}
