// The malformed lines of an endpoint's scrapes, as a session lists them among its parse problems:
// each once (the same bad line in every scrape is one problem, not one per scrape), and at most
// MAX_LISTED of them, then one problem that says the rest are not listed, so a session scraped
// every few seconds for days keeps a bounded list.
import type { ParseProblem } from '../core/records';

export const MAX_LISTED_SCRAPE_PROBLEMS = 100;

export class ScrapeProblemLedger {
  private readonly listed = new Set<string>();
  private full = false;

  /** The problems of one scrape not listed before (by line and message), and once the word that later ones are not. */
  fresh(problems: readonly ParseProblem[]): ParseProblem[] {
    const out: ParseProblem[] = [];
    for (const p of problems) {
      if (this.full) break;
      const key = `${p.line}\u0000${p.message}`;
      if (this.listed.has(key)) continue;
      if (this.listed.size >= MAX_LISTED_SCRAPE_PROBLEMS) {
        this.full = true;
        out.push({
          line: p.line,
          message: `metrics: more than ${MAX_LISTED_SCRAPE_PROBLEMS} different malformed lines in the endpoint's scrapes; the later ones are not listed (the terminal says how many a scrape has when that changes)`,
        });
        break;
      }
      this.listed.add(key);
      out.push(p);
    }
    return out;
  }
}
