// The figures a scoped summary (one boot, one server, a time window, cold left out) reads from its requests,
// kept per scope: every view asks again on each change of the session (the status bar for the
// last boot, a panel for its pick), and a summary is built over every request in scope. A
// request's row never changes once analysed and rows are only appended, so a scope's rows are
// the same set while their count is: the figures are kept until a request joins the scope, the
// stage roles (which name stages in the findings) change, or the log's first DEBUG line is read
// (the missing-tables notice and finding then say the server did not run at INFO). The roles
// are told apart by identity: their owner (StreamAnalysis.stageRoles) gives the same object
// while they are the same.
import type { ExplainScope } from '../core/explain/types';
import type { Finding } from '../core/analysis/types';
import type { SummaryResult } from '../protocol';

/** What a summary reads from the requests in scope alone. */
export interface ScopedFigures {
  readonly requestCount: number;
  readonly stages: SummaryResult['stages'];
  readonly replicas: NonNullable<SummaryResult['replicas']>;
  /** The findings of the requests in scope (before the session's own: scrapes, deploy evidence). */
  readonly findings: readonly Finding[];
  readonly endToEnd: SummaryResult['endToEnd'];
  readonly servers: NonNullable<SummaryResult['servers']> | null;
  readonly tablesMissing: SummaryResult['tablesMissing'];
  readonly edges: SummaryResult['edges'];
  /** The requests in scope read from the per-request stats dicts alone (no phase split: legacyStats.ts). */
  readonly legacyDictRequests: number;
}

/** A few recent scopes are enough (a boot picked per view, the status bar's last boot, a window). */
const KEPT = 8;

export class ScopedSummaryCache {
  private readonly kept = new Map<string, ScopedFigures>();
  /** A number per roles object asked with: a new object is new roles. */
  private readonly rolesIds = new WeakMap<Readonly<Record<string, string>>, number>();
  private rolesCount = 0;

  /**
   * The figures of `rows` (the requests in `scope`, in index order) with the stage roles named
   * `roles`, of a log with a DEBUG line or not (`debugLines`) and a stats table printed at DEBUG or
   * not (`statsTablesAtDebug`); computed by `compute` when the scope's rows, the roles (another
   * object) or either of those changed since last asked.
   */
  get(
    scope: ExplainScope,
    rows: ArrayLike<number>,
    roles: Readonly<Record<string, string>>,
    debugLines: boolean,
    statsTablesAtDebug: boolean,
    compute: () => ScopedFigures,
  ): ScopedFigures {
    const scopeKey = JSON.stringify([scope.fromMs, scope.toMs, scope.excludeCold === true, scope.boot, scope.server]);
    const key = `${scopeKey}|${rows.length}|${rows.length === 0 ? -1 : rows[rows.length - 1]}|${this.rolesId(roles)}|${debugLines ? 1 : 0}${statsTablesAtDebug ? 1 : 0}`;
    const kept = this.kept.get(key);
    if (kept !== undefined) return kept;
    // The scope's figures before its latest request joined are not asked again.
    for (const k of this.kept.keys()) if (k.startsWith(`${scopeKey}|`)) this.kept.delete(k);
    if (this.kept.size >= KEPT) this.kept.clear();
    const figures = compute();
    this.kept.set(key, figures);
    return figures;
  }

  private rolesId(roles: Readonly<Record<string, string>>): number {
    let id = this.rolesIds.get(roles);
    if (id === undefined) this.rolesIds.set(roles, (id = this.rolesCount++));
    return id;
  }
}
