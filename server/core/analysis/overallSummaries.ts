// The [Overall Summary] tables of a log, per field over the tables: what a log of older
// vLLM-Omni builds, which printed that table at INFO, says about latency when it has no
// per-request stats table. Every table read counts, whether or not a request took it
// (requestAssembler.ts): a table taken by a request whose own tables were cut off (real-logs
// 01, 04) is still the log's only number, and a digest that does not depend on how calls were
// assembled is the same live and read at once. One sample per table and field goes into a
// SampleSet; the tables are not kept. A table covers `e2e_requests` requests and its values are
// theirs together: nothing is divided into per-request values here.
import type { FieldMap } from '../values';
import { SampleSet } from './sampleSet';
import {
  STATS_LOGGER_FIX,
  STATS_TABLES_CUT_CAUSE,
  STATS_TABLES_CUT_FIX,
  STATS_TABLES_FIX,
  statsLoggerCause,
} from './tablesMissing';
import type { Distribution, OverallFieldStates, OverallSummaries } from './types';
import { countOf } from '../numberText';

/** Distinct field names summarized (upstream prints 7 plus one per stage); a hostile input's others are counted only. */
export const MAX_OVERALL_FIELDS = 64;

interface FieldTally {
  readonly samples: SampleSet;
  notMeasured: number;
  text: number;
  /** Tables read whole that printed the row (the others read whole hid it). */
  inWholeTables: number;
}

export class OverallSummaryBuilder {
  private readonly tallies = new Map<string, FieldTally>();
  private tables = 0;
  private wholeTables = 0;
  private coveringSeveral = 0;
  private cellsLeftOut = 0;

  add(fields: FieldMap, complete: boolean): void {
    this.tables += 1;
    if (complete) this.wholeTables += 1;
    for (const name in fields) {
      let tally = this.tallies.get(name);
      if (tally === undefined) {
        if (this.tallies.size >= MAX_OVERALL_FIELDS) {
          this.cellsLeftOut += 1;
          continue;
        }
        tally = { samples: new SampleSet(), notMeasured: 0, text: 0, inWholeTables: 0 };
        this.tallies.set(name, tally);
      }
      const cell = fields[name];
      if (cell.state === 'measured') tally.samples.add(cell.value);
      else if (cell.state === 'notMeasured') tally.notMeasured += 1;
      else tally.text += 1;
      if (complete) tally.inWholeTables += 1;
    }
    const covers = fields['e2e_requests'];
    if (covers !== undefined && covers.state === 'measured' && covers.value > 1) this.coveringSeveral += 1;
  }

  /** The sample sets' room for more samples let go (SampleSet.trim): the input ended. */
  trim(): void {
    for (const tally of this.tallies.values()) tally.samples.trim();
  }

  /** null before any table. */
  summary(): OverallSummaries | null {
    if (this.tables === 0) return null;
    const fields: Record<string, Distribution> = {};
    const fieldStates: Record<string, OverallFieldStates> = {};
    for (const [name, tally] of this.tallies) {
      const values = tally.samples.distribution();
      if (values !== null) fields[name] = values;
      fieldStates[name] = {
        measured: tally.samples.count,
        notMeasured: tally.notMeasured,
        text: tally.text,
        hidden: this.wholeTables - tally.inWholeTables,
      };
    }
    return {
      tables: this.tables,
      cutOffTables: this.tables - this.wholeTables,
      coveringSeveral: this.coveringSeveral,
      fields,
      fieldStates,
      cellsLeftOut: this.cellsLeftOut,
    };
  }
}

/**
 * Shown in place of per-stage numbers when [Overall Summary] tables are all a log has: what they
 * are, what is missing, the fix. `debugLines`: the log has a line at DEBUG (AnalysisSnapshot.debugLines),
 * so the server did not run at INFO; `statsTablesAtDebug`: a stats table was printed at DEBUG (today's
 * builds print these there), so the stats logger logs at DEBUG and the stage tables were cut out.
 */
export function overallSummaryOnlyMessage(
  overall: OverallSummaries,
  debugLines = false,
  statsTablesAtDebug = false,
): string {
  const n = overall.tables;
  const tables = countOf(n, '[Overall Summary] table');
  const several = overall.coveringSeveral;
  const most = overall.fields['e2e_requests']?.max;
  const which =
    several === n ? (n === 1 ? 'It covers' : 'Each covers') : `${several} of ${n} cover${several === 1 ? 's' : ''}`;
  const whose = several === n || several === 1 ? 'its' : 'their';
  const covering =
    several === 0
      ? ''
      : ` ${which} several requests${most === undefined ? '' : ` (e2e_requests ${several === 1 ? '' : 'up to '}${most})`}: ` +
        `${whose} values are those requests' together (e2e_avg_time_per_request_ms their mean), not any one request's.`;
  const shown =
    'Shown instead: what the summaries print, one value per table (end-to-end and per-stage wall time, tokens/s); ' +
    'the per-request split into queued / prefill / decode / TTFT needs the';
  if (statsTablesAtDebug)
    return (
      `No per-request stage statistics: the log has ${tables}, printed at DEBUG, but no [StageRequestStats] table. ` +
      `${STATS_TABLES_CUT_CAUSE}. ${shown} stats tables. Fix: ${STATS_TABLES_CUT_FIX}.${covering}`
    );
  if (debugLines)
    return (
      `No per-request stage statistics: the log has ${tables} and DEBUG lines but no [StageRequestStats] table. ` +
      `${statsLoggerCause('[Overall Summary]')}. ${shown} stats tables. Fix: ${STATS_LOGGER_FIX}.${covering}`
    );
  return (
    `No per-request stage statistics: the log has ${tables} (older vLLM-Omni builds print ${n === 1 ? 'it' : 'them'} at INFO) and no ` +
    `[StageRequestStats] table. ${shown} DEBUG stats tables. Fix: ${STATS_TABLES_FIX}.${covering}`
  );
}

/**
 * What `cutOff` of a log's `tables` [Overall Summary] tables being cut off leaves unknown; `where`
 * names the list of the cut lines (analyze's Input problems), which the reader sees or not.
 */
export function overallCutOffSentence(cutOff: number, tables: number, where: string): string {
  return `${cutOff} of ${tables} table${tables === 1 ? ' was' : 's were'} cut off (${where}): the rows after the cut are unknown, not hidden.`;
}

/**
 * One line for the CSV, whose rows are per request and stage: the [Overall Summary] tables of a
 * log without stage tables have none, so the CSV says where their values are. `requestRows`: the
 * log's requests gave rows of their own (its [OmniTiming] lines).
 */
export function overallSummaryCsvNote(overall: OverallSummaries, requestRows: boolean): string {
  const n = overall.tables;
  const cut = overall.cutOffTables === 0 ? '' : n === 1 ? ' (cut off)' : ` (${overall.cutOffTables} cut off)`;
  return (
    `the input has ${countOf(n, '[Overall Summary] table')}${cut} and no [StageRequestStats] table: ` +
    `${n === 1 ? 'it prints' : 'they print'} run totals, not any request's, ${totalsInCsv(requestRows)}; --format table shows ` +
    `${n === 1 ? 'it' : 'them'} as printed, --format json as overallSummaries`
  );
}

/** Where a run's totals are in the CSV: nowhere, whether or not requests gave it rows of their own. */
export function totalsInCsv(requestRows: boolean): string {
  return requestRows ? "so none of the CSV's rows holds them (its rows are the requests')" : 'so no CSV row';
}
