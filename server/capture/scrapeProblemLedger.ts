// The malformed lines of an endpoint's scrapes, as a session lists them among its parse problems:
// each once (the same bad line in every scrape is one problem, not one per scrape), and at most
// MAX_LISTED of them, then one problem that says the rest are not listed, so a session scraped
// every few seconds for days keeps a bounded list. The list is stored with the session, so that a
// reopened session lists what its capture listed.
import type { ParseProblem } from '../core/records';

export const MAX_LISTED_SCRAPE_PROBLEMS = 100;

const NOT_LISTED = `metrics: more than ${MAX_LISTED_SCRAPE_PROBLEMS} different malformed lines in the endpoint's scrapes; the later ones are not listed (the terminal says how many a scrape has when that changes)`;

export class ScrapeProblemLedger {
  private readonly keys = new Set<string>();
  private readonly list: ParseProblem[] = [];
  private full = false;

  /** Every problem listed so far, in order (the last one says the rest are not listed, once the list is full). */
  get listed(): readonly ParseProblem[] {
    return this.list;
  }

  /** The problems of one scrape not listed before (by line and message), and once the word that later ones are not. */
  fresh(problems: readonly ParseProblem[]): ParseProblem[] {
    const out: ParseProblem[] = [];
    for (const p of problems) {
      if (this.full) break;
      const key = `${p.line}\u0000${p.message}`;
      if (this.keys.has(key)) continue;
      if (this.keys.size >= MAX_LISTED_SCRAPE_PROBLEMS) {
        this.full = true;
        out.push({ line: p.line, message: NOT_LISTED });
        break;
      }
      this.keys.add(key);
      out.push(p);
    }
    for (const p of out) this.list.push(p);
    return out;
  }

  /** Takes back a stored list (a reopened session): those are listed, and not again when a scrape repeats them. */
  restore(problems: readonly ParseProblem[]): void {
    for (const p of problems) {
      if (p.message === NOT_LISTED) this.full = true;
      else this.keys.add(`${p.line}\u0000${p.message}`);
      this.list.push(p);
    }
  }
}
