// Groups parsed records into requests, in stream order. The server prints one request's
// records in one call (Overall Summary, RequestE2EStats, OmniTiming, StageRequestStats,
// TransferEdgeStats), so a request is final when a record of another call arrives, a
// boot marker arrives, or the stream is flushed. Calls are followed per process (the
// `(APIServer pid=N)` of the line prefix): processes that log to one file interleave
// their calls, and one process's record does not end another's call. The [Overall
// Summary] that opens a call belongs to the requests of that call: the next
// `e2e_requests` requests (1 when serving). Boot markers number the server boots inside
// one log; the first request after each boot is marked cold (seed 001: a cold start can
// put a one-time cost into any phase). In a log that merges several servers' (its lines
// tagged by the server, LogHeader.source), a server's start ends that server's calls, starts a
// boot of that server alone (each server's boots numbered as its own log numbers them) and
// marks that server's first request cold. A duplex turn's records are keyed by its response id;
// builds whose aggregator has no timing identity print the turn's identity first, on an
// `[OmniTiming]` line of its own (docs/formats.md#the-omnitiming-line), which names that request
// and is no request itself; builds that print it only on the turn's timed `[OmniTiming]` line,
// between tables titled by the response id, name that response id's records with it.
import type {
  LogHeader,
  LogRecord,
  OmniTimingRecord,
  OverallSummaryRecord,
  StageTableRecord,
  TransferEdge,
} from '../records';
import type { FieldMap } from '../values';
import { numberOf } from '../values';
import { requestTransfers } from './transfers';
import { stagesFromColumns, stagesFromTiming } from './stageBuilder';
import type { AnalyzedRequest, RequestOverallSummary, RequestRepeat } from './types';
import type { RequestPlace } from './legacyRequests';
import { addedTimeToFirstOutput } from './crossStage';
import { LEGACY_DICT_RECORD, recordKindsOf, repeatedRecord } from './requestRepeats';
import { withDictValues } from './dictWithTables';

type RequestRecordKind = 'requestE2E' | 'omniTiming' | 'stageTable' | 'transferTable';

/**
 * Before any call has been seen whole: the records vLLM-Omni prints last in a call. With
 * the DEBUG tables, the stage table (the transfer table after it, when there is one);
 * without tables (INFO), the `[OmniTiming]` line, which otherwise comes before them.
 */
const USUAL_LAST_WITH_TABLES: ReadonlySet<RequestRecordKind> = new Set(['stageTable', 'transferTable']);
const USUAL_LAST_WITHOUT_TABLES: ReadonlySet<RequestRecordKind> = new Set(['omniTiming']);

interface OpenRequest {
  readonly lane: Lane;
  readonly key: string;
  readonly requestId: string;
  readonly boot: number;
  readonly cold: boolean;
  readonly line: number;
  readonly timestamp: string | null;
  stageTable: StageTableRecord | null;
  e2e: FieldMap;
  timing: OmniTimingRecord | null;
  transfers: TransferEdge[];
  complete: boolean;
  /** The kind of the last record the request received. */
  lastKind: RequestRecordKind;
  /** What it printed, as record-kind bits (requestRepeats.ts): a later request of its id printing one of them again repeats it. */
  kinds: number;
  overallSummary: RequestOverallSummary | null;
  /**
   * It has only its [OmniTiming] line and an [Overall Summary] came after it: the next record of its
   * id (not another [OmniTiming]) is its own and the summary its, any other starts the next request.
   */
  awaitsTables: boolean;
  /** The request_level_metrics dict of its id printed before its tables (holdDict): one request with them. */
  readonly dict: AnalyzedRequest | null;
}

/** A seenKeys entry is requests * KEY_REQUEST + the record-kind bits of requestRepeats.ts. */
const KEY_REQUEST = 2 ** 17;
const requestsOf = (entry: number): number => Math.floor(entry / KEY_REQUEST);

/** Dicts a process holds for their tables; past this the oldest is a request alone. */
const MAX_HELD_DICTS = 10_000;

/** Requests an [Overall Summary] is taken to cover when it does not say (its rows were not read). */
const DEFAULT_CALL_REQUESTS = 1;
/** A summary claiming more requests than this still covers at most this many (garbage input). */
const MAX_CALL_REQUESTS = 1_000_000;

/** Request ids of duplex records carry response/turn: keep them apart. */
function requestKeyOf(requestId: string, identity: Readonly<Record<string, string>>): string {
  // Almost every record names its request_id only: no arrays built for those.
  let others = false;
  for (const k in identity) {
    if (k !== 'request_id') {
      others = true;
      break;
    }
  }
  if (!others) return requestId;
  const extra = Object.entries(identity).filter(([k]) => k !== 'request_id');
  return extra.length === 0 ? requestId : `${requestId} (${extra.map(([k, v]) => `${k}=${v}`).join(' ')})`;
}

/** The e2e map of a request that has printed none yet (never handed out mutated). */
const NO_E2E: FieldMap = Object.freeze({});

/** A duplex turn's identity line: the records of request `response` that follow are that turn's. */
interface TurnLabel {
  readonly response: string;
  /** The key the turn's request takes: the identity line's id and identity, as a title with them prints. */
  readonly key: string;
}

/** One process's call in progress. */
interface Lane {
  /** The server of a merged log the lane's process is of (LogHeader.source); null in a log of one server. */
  server: string | null;
  open: OpenRequest | null;
  /** The [Overall Summary] of the lane's current call, and how many more requests it covers. */
  overall: RequestOverallSummary | null;
  overallLeft: number;
  turn: TurnLabel | null;
  /** Requests read from request_level_metrics dicts whose tables may come next, by request key, oldest first. */
  readonly dicts: Map<string, AnalyzedRequest>;
}

function newLane(server: string | null): Lane {
  return { server, open: null, overall: null, overallLeft: 0, turn: null, dicts: new Map() };
}

/** An `[OmniTiming]` line that prints a duplex turn's identity (`req= response= turn= reason=`) and no time. */
function isTurnLabel(record: OmniTimingRecord): boolean {
  return (
    record.identity['response'] !== undefined &&
    record.totalS === null &&
    record.engineS === null &&
    record.preprocessS === null &&
    record.ar2diffusionMs === null &&
    record.stages.length === 0 &&
    record.transfers.length === 0 &&
    Object.keys(record.extra).length === 0
  );
}

export class RequestAssembler {
  /** Lanes by process name; records without a process name join the lane of the record before them. */
  private readonly lanes = new Map<string, Lane>();
  private lane: Lane = newLane(null);
  private laneProcess: string | null = null;
  /** The log's boots: the most any server started. */
  private boot = 0;
  /**
   * Each server's boots (a merged log's by its tag; null: a log of one server, or lines of no
   * tag): one pod's restart starts a boot of that pod alone, as its own log would number it.
   */
  private readonly serverBoots = new Map<string | null, { boot: number; hasRequest: boolean }>();
  /** The servers started (null: the server of a log of one) whose first request has not come yet: it is cold. */
  private readonly coldServers = new Set<string | null>();
  /** Per request key: how many requests had it, and what they printed (requestRepeats.ts). */
  private readonly seenKeys = new Map<string, number>();
  /** Record kinds that were the last of a call (the next call's record came after them). */
  private readonly lastKinds = new Set<RequestRecordKind>();
  /** Record kinds that another record of the same call followed. */
  private readonly innerKinds = new Set<RequestRecordKind>();
  /** A stats table was seen (the server logs at DEBUG). */
  private sawTable = false;
  /** The requests read from their tables and a held dict (the request itself says nothing of it). */
  private readonly withDicts = new WeakSet<AnalyzedRequest>();

  /** Feeds one record; returns the requests this record finalized (usually 0 or 1). */
  add(record: LogRecord): AnalyzedRequest[] {
    const done: AnalyzedRequest[] = [];
    this.addInto(record, done);
    return done;
  }

  /** Feeds one record; appends the requests it finalized to `done` (no array per record). */
  addInto(record: LogRecord, done: AnalyzedRequest[]): void {
    switch (record.kind) {
      case 'bootMarker': {
        // A server start ends every process's call: of every process, or in a merged log the server's.
        const server = record.header?.source ?? null;
        const lanes = server === null ? this.allLanes() : this.allLanes().filter((lane) => lane.server === server);
        this.finishAllInto(done, true, lanes);
        for (const lane of lanes) {
          lane.overall = null;
          lane.turn = null;
        }
        let boots = this.serverBoots.get(server);
        if (boots === undefined) this.serverBoots.set(server, (boots = { boot: 0, hasRequest: false }));
        // A start prints several marker lines: a boot ends only once it had a request.
        if (boots.boot === 0 || boots.hasRequest) {
          boots.boot += 1;
          boots.hasRequest = false;
          if (boots.boot > this.boot) this.boot = boots.boot;
        }
        this.coldServers.add(server);
        return;
      }
      case 'overallSummary': {
        this.sawTable = true;
        // Printed first in each call: the previous call's request is complete, unless all it has
        // is an [OmniTiming] line, which vllm-omni#3069's branch prints before the request's summary
        // and tables: it waits for the next request record (awaitsTables).
        const lane = this.laneOf(record.header);
        const open = lane.open;
        if (open !== null && isTimingOnly(open)) open.awaitsTables = true;
        else this.finishCallInto(lane, done);
        startCall(lane, record);
        return;
      }
      case 'requestE2E':
      case 'omniTiming':
      case 'stageTable':
      case 'transferTable': {
        const lane = this.laneOf(record.header);
        if (record.kind === 'omniTiming' && isTurnLabel(record)) {
          // The turn's call begins with it (its Overall Summary, when printed, comes next).
          this.finishCallInto(lane, done);
          lane.turn = {
            response: record.identity['response'] as string,
            key: requestKeyOf(record.requestId, record.identity),
          };
          return;
        }
        let key = requestKeyOf(record.requestId, record.identity);
        if (lane.turn !== null) {
          if (key === lane.turn.response) key = lane.turn.key;
          else lane.turn = null;
        }
        if (record.kind === 'omniTiming') this.nameTurn(lane, record, key);
        let target = lane.open;
        const sameCall =
          target !== null &&
          target.key === key &&
          !(record.kind === 'stageTable' && target.stageTable !== null) &&
          !(target.awaitsTables && record.kind === 'omniTiming');
        if (target !== null && target.awaitsTables) {
          target.awaitsTables = false;
          // Its tables: the summary printed between is this request's.
          if (sameCall) target.overallSummary = takeOverall(lane);
        }
        if (!sameCall) {
          this.finishCallInto(lane, done);
          target = this.startRequest(lane, key, record.line, record.header?.timestamp ?? null, record.kind);
        } else if (target !== null) {
          this.innerKinds.add(target.lastKind);
        }
        if (target === null) return;
        target.lastKind = record.kind;
        target.kinds |= recordKindsOf(record);
        if (record.kind !== 'omniTiming') this.sawTable = true;
        // The parser hands out a fresh map per record: the first one is taken as it is.
        if (record.kind === 'requestE2E')
          target.e2e = target.e2e === NO_E2E ? record.fields : { ...target.e2e, ...record.fields };
        else if (record.kind === 'omniTiming') target.timing = record;
        else if (record.kind === 'stageTable') target.stageTable = record;
        else for (const edge of record.edges) target.transfers.push(edge);
        if ('complete' in record && !record.complete) target.complete = false;
        return;
      }
      default:
        return;
    }
  }

  /**
   * An `[OmniTiming]` line with a turn's identity and its times, from a build whose titles print
   * the response id only: the records of that response id around it are the turn's, named by the
   * identity as the other builds name them.
   */
  private nameTurn(lane: Lane, record: OmniTimingRecord, key: string): void {
    const response = record.identity['response'];
    if (response === undefined || key === response) return;
    lane.turn = { response, key };
    const open = lane.open;
    if (open === null || open.key !== response || open.timing !== null) return;
    // The response id's request began with the line's E2E table: it takes the turn's name, its
    // place (boot, cold start) kept, as if its first record had printed the identity.
    const left = (this.seenKeys.get(response) ?? 0) - KEY_REQUEST;
    if (left > 0) this.seenKeys.set(response, left);
    else this.seenKeys.delete(response);
    lane.open = { ...open, key, requestId: this.countRequest(key) };
  }

  /** Boots seen so far (0 when the log shows no server start); in a merged log, the most any server started. */
  get bootNumber(): number {
    return this.boot;
  }

  /**
   * The boot a record of `server` (a merged log's tag; none: a log of one server) is in: that
   * server's starts so far; a line of no tag follows the log's latest boot.
   */
  bootOf(server: string | null | undefined): number {
    const boots = this.serverBoots.get(server ?? null);
    if (boots !== undefined) return boots.boot;
    return server === null || server === undefined ? this.boot : 0;
  }

  /** Finalizes the open requests (call at end of input). */
  flush(): AnalyzedRequest[] {
    const done: AnalyzedRequest[] = [];
    this.finishAllInto(done, false);
    return done;
  }

  /**
   * The stream went quiet: finalizes each open request whose call may be over (its last
   * record is of a kind that has ended calls in this stream and never had another record of
   * its call after it; before a whole call was seen, a kind vLLM-Omni prints last). A pause
   * inside a call then never splits a request that reading the same bytes at once keeps whole.
   */
  flushQuiet(): AnalyzedRequest[] {
    const done: AnalyzedRequest[] = [];
    for (const open of this.openRequests()) if (this.callMayBeOver(open)) this.finalizeInto(open, done, false);
    // Tables come in the dict's call: where the log prints none, a quiet stream ends the dict's request.
    if (!this.sawTable) this.releaseDictsInto(done);
    return done;
  }

  private callMayBeOver(open: OpenRequest): boolean {
    if (open.awaitsTables) return false;
    const kind = open.lastKind;
    if (this.innerKinds.has(kind)) return false;
    if (this.lastKinds.size > 0) return this.lastKinds.has(kind);
    return (this.sawTable ? USUAL_LAST_WITH_TABLES : USUAL_LAST_WITHOUT_TABLES).has(kind);
  }

  /** The lane of a record's process (none: the lane of the record before it). */
  private laneOf(header: LogHeader | null): Lane {
    const process = header === null ? null : header.process;
    if (process === null || process === this.laneProcess) return this.lane;
    let lane = this.lanes.get(process);
    if (lane === undefined) {
      // The records before the first process name belong to the first process seen.
      const server = header?.source ?? null;
      if (this.lanes.size === 0) {
        lane = this.lane;
        lane.server = server;
      } else lane = newLane(server);
      this.lanes.set(process, lane);
    }
    this.lane = lane;
    this.laneProcess = process;
    return lane;
  }

  private allLanes(): Lane[] {
    return this.lanes.size === 0 ? [this.lane] : [...this.lanes.values()];
  }

  /** Open requests (of `lanes`) in the order they started. */
  private openRequests(lanes = this.allLanes()): OpenRequest[] {
    const open: OpenRequest[] = [];
    for (const lane of lanes) if (lane.open !== null) open.push(lane.open);
    return open.sort((a, b) => a.line - b.line);
  }

  /** Finalizes every open request (of `lanes`), in the order they started. */
  private finishAllInto(done: AnalyzedRequest[], callsEnded: boolean, lanes = this.allLanes()): void {
    const from = done.length;
    for (const open of this.openRequests(lanes)) this.finalizeInto(open, done, callsEnded);
    const opened = done.length;
    this.releaseDictsInto(done, lanes);
    // Held dicts of another process may have started before an open request: all in line order.
    if (opened > from && done.length > opened) {
      const finished = done.splice(from).sort((a, b) => a.line - b.line);
      for (const request of finished) done.push(request);
    }
  }

  /** The held dicts (of `lanes`), each a request alone, in the order they came. */
  private releaseDictsInto(done: AnalyzedRequest[], lanes = this.allLanes()): void {
    for (const lane of lanes) {
      for (const request of lane.dicts.values()) done.push(request);
      lane.dicts.clear();
    }
  }

  /**
   * A request read whole from a `request_level_metrics` dict (legacyRequests.ts): the tables of
   * its id the same process prints after it (the vllm-omni#891 branch prints both in one call)
   * are the same request, so it is held for them and finalized with them; without them it is a
   * request alone (at the process's next dict of its id, a server start, the end, or a quiet
   * stream in a log without tables). Finalized requests are appended to `done`.
   */
  holdDictInto(header: LogHeader | null, key: string, request: AnalyzedRequest, done: AnalyzedRequest[]): void {
    const lane = this.laneOf(header);
    const earlier = lane.dicts.get(key);
    if (earlier !== undefined) {
      lane.dicts.delete(key);
      done.push(earlier);
    } else if (lane.dicts.size >= MAX_HELD_DICTS) {
      const oldest = lane.dicts.keys().next().value as string;
      done.push(lane.dicts.get(oldest) as AnalyzedRequest);
      lane.dicts.delete(oldest);
    }
    lane.dicts.set(key, request);
  }

  /** The lane's next call began: its open request is final, and its last record's kind ends calls. */
  private finishCallInto(lane: Lane, done: AnalyzedRequest[]): void {
    if (lane.open !== null) this.finalizeInto(lane.open, done, true);
  }

  private finalizeInto(open: OpenRequest, done: AnalyzedRequest[], callEnded: boolean): void {
    if (callEnded) this.lastKinds.add(open.lastKind);
    open.lane.open = null;
    const request = finalize(open, this.noteKinds(open.key, open.kinds));
    if (open.dict !== null) this.withDicts.add(request);
    done.push(request);
  }

  /** Whether this assembler read `request` from its tables and the request_level_metrics dict before them (holdDictInto). */
  readWithDict(request: AnalyzedRequest): boolean {
    return this.withDicts.has(request);
  }

  /**
   * A request starting now: its id (a repeated id numbered `#2`, `#3`...), its boot, and whether
   * it is its server's first since that server started (`server`: the lane's; undefined for a
   * request read whole from one record, legacyRequests.ts, which takes the first server started).
   */
  placeRequest(key: string, server?: string | null): RequestPlace {
    const requestId = this.countRequest(key);
    const cold = this.takeCold(server);
    const boot = this.bootOf(server);
    if (server === undefined) {
      // Read whole from one record, of no lane: every server's boot has had a request.
      for (const boots of this.serverBoots.values()) boots.hasRequest = true;
    } else {
      const boots = this.serverBoots.get(server);
      if (boots !== undefined) boots.hasRequest = true;
    }
    return { requestId, boot, cold };
  }

  /** Whether a request of `server` is its server's first since it started (and it is so no more). */
  private takeCold(server: string | null | undefined): boolean {
    const servers = this.coldServers;
    if (servers.size === 0) return false;
    if (server !== undefined) return servers.delete(server);
    servers.delete(servers.values().next().value as string | null);
    return true;
  }

  /** Counts one more request of `key`: its id, a repeated key numbered `#2`, `#3`... */
  private countRequest(key: string): string {
    const entry = this.seenKeys.get(key) ?? 0;
    const seen = requestsOf(entry);
    this.seenKeys.set(key, entry + KEY_REQUEST);
    return seen === 0 ? key : `${key}#${seen + 1}`;
  }

  /** A request read whole from a stats dict of the format before February 2026 (legacyRequests.ts). */
  placeLegacyRequest(key: string): RequestPlace {
    const place = this.placeRequest(key);
    const repeat = this.noteKinds(key, LEGACY_DICT_RECORD);
    return repeat === undefined ? place : { ...place, repeat };
  }

  /**
   * Adds a finished request's record kinds to its key's; whether it printed again a record an
   * earlier request of its key printed (the same lines read twice, as in a log concatenated
   * with itself). Exact: the key itself is kept, for the `#2` numbering.
   */
  private noteKinds(key: string, kinds: number): RequestRepeat | undefined {
    const entry = this.seenKeys.get(key) ?? 0;
    const { next, repeat } = repeatedRecord(entry % KEY_REQUEST, kinds);
    this.seenKeys.set(key, entry - (entry % KEY_REQUEST) + next);
    return repeat;
  }

  private startRequest(
    lane: Lane,
    key: string,
    line: number,
    timestamp: string | null,
    kind: RequestRecordKind,
  ): OpenRequest {
    // The dict of its id came first: the request has its place (id, boot, cold start) already.
    const dict = lane.dicts.get(key) ?? null;
    if (dict !== null) lane.dicts.delete(key);
    const place = dict ?? this.placeRequest(key, lane.server);
    lane.open = {
      lane,
      key,
      requestId: place.requestId,
      boot: place.boot,
      cold: place.cold,
      line,
      timestamp,
      stageTable: null,
      e2e: NO_E2E,
      timing: null,
      transfers: [],
      complete: true,
      lastKind: kind,
      kinds: 0,
      overallSummary: takeOverall(lane),
      awaitsTables: false,
      dict,
    };
    return lane.open;
  }
}

/**
 * A request of an `[OmniTiming]` line and nothing else yet, no summary before it: what
 * vllm-omni#3069's branch prints ahead of the request's summary. Builds that print the summary
 * first (older ones at INFO, the line after it) gave that request the summary already.
 */
function isTimingOnly(open: OpenRequest): boolean {
  return (
    open.timing !== null &&
    open.overallSummary === null &&
    open.stageTable === null &&
    open.e2e === NO_E2E &&
    open.transfers.length === 0
  );
}

function startCall(lane: Lane, record: OverallSummaryRecord): void {
  const covers = numberOf(record.fields, 'e2e_requests');
  lane.overall = { line: record.line, fields: record.fields };
  lane.overallLeft =
    covers !== undefined && Number.isInteger(covers) && covers >= 1
      ? Math.min(covers, MAX_CALL_REQUESTS)
      : DEFAULT_CALL_REQUESTS;
}

/** The summary of the lane's call that a request starting now belongs to. */
function takeOverall(lane: Lane): RequestOverallSummary | null {
  if (lane.overall === null) return null;
  const summary = lane.overall;
  if (--lane.overallLeft <= 0) lane.overall = null;
  return summary;
}

function fromRecords(open: OpenRequest, repeat: RequestRepeat | undefined): AnalyzedRequest {
  const stageTableCut = open.stageTable !== null && !open.stageTable.complete;
  const stages =
    open.stageTable !== null
      ? stagesFromColumns(open.stageTable.columns, stageTableCut, open.stageTable.unreadRows)
      : open.timing !== null
        ? stagesFromTiming(open.timing)
        : [];
  return {
    requestId: open.requestId,
    boot: open.boot,
    cold: open.cold,
    line: open.line,
    timestamp: open.timestamp,
    stages,
    e2e: open.e2e,
    timing: open.timing,
    transfers: requestTransfers(open.transfers, open.timing),
    overallSummary: open.overallSummary,
    complete: open.complete,
    hasStageTable: open.stageTable !== null,
    stageTableCut,
    ...(open.stageTable?.unreadRows === undefined ? {} : { stageTableUnreadRows: open.stageTable.unreadRows }),
    derived: { addedTimeToFirstOutputMs: addedTimeToFirstOutput(stages) },
    ...(repeat === undefined ? {} : { repeat }),
    ...(open.lane.server === null ? {} : { server: open.lane.server }),
  };
}

function finalize(open: OpenRequest, repeat: RequestRepeat | undefined): AnalyzedRequest {
  const tables = fromRecords(open, repeat);
  return open.dict === null ? tables : withDictValues(tables, open.dict);
}
