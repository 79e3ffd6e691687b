// Unpacks batches of parse outputs made by recordPacker.ts (the receiving thread's side of
// recordPack.ts, which says why and how).
import type {
  LogHeader,
  LogRecord,
  OmniTimingRecord,
  OverallSummaryRecord,
  ParseOutput,
  ParseProblem,
  RecordIdentity,
  RequestE2ERecord,
  StageColumn,
  StageTableRecord,
  TransferEdge,
  TransferTableRecord,
} from '../records';
import { BLANK, NOT_MEASURED, measured, type Cell, type FieldMap } from '../values';
import { buildFieldMap, type ColumnCells } from './fieldMaps';
import { FieldSchema } from './fieldSchema';
import { TextCells } from './cells';
import {
  OUTPUT_END,
  SIDE_RECORD,
  PROBLEMS,
  STAGE_TABLE,
  TRANSFER_TABLE,
  REQUEST_E2E,
  OMNI_TIMING,
  OVERALL_SUMMARY,
  SIDE_FIELDS,
  DEBUG_ABSENT,
  DEBUG_TRUE,
  NULL_OBJECT,
  SENT_OBJECT,
  CELL_NUMBER,
  CELL_SAMPLED,
  CELL_NONE,
  CELL_BLANK,
  NULL_VALUE,
  ABSENT,
  SentObjects,
  type PackedBatch,
} from './recordPack';

/** Unpacks batches into parse outputs (the receiving thread's side), in the order they were packed. */
export class RecordUnpacker {
  private tags = new Uint8Array(0);
  private t = 0;
  private numbers = new Float64Array(0);
  private n = 0;
  private strings: string[] = [];
  private side: unknown[] = [];
  private s = 0;
  private readonly root = FieldSchema.root(Number.MAX_SAFE_INTEGER);
  private readonly layouts: { readonly names: readonly string[]; readonly schema: FieldSchema }[] = [];
  private readonly headers = new SentObjects<LogHeader>();
  private readonly identities = new SentObjects<RecordIdentity>();
  private readonly texts = new TextCells();
  private readonly values: number[] = [];
  private readonly extras: (Cell | undefined)[] = [];
  private readonly plainCells: ColumnCells = { values: this.values, extras: null };
  private readonly extraCells: ColumnCells = { values: this.values, extras: this.extras };

  /** The batch's parse outputs, one by one (each unpacked when it is asked for). */
  *outputs(batch: PackedBatch): Generator<ParseOutput, void, undefined> {
    for (const names of batch.layouts) {
      let schema = this.root;
      for (const name of names) schema = schema.child(name);
      this.layouts.push({ names, schema });
    }
    this.tags = batch.tags;
    this.numbers = batch.numbers;
    this.strings = batch.strings;
    this.side = batch.side;
    this.t = 0;
    this.n = 0;
    this.s = 0;
    while (this.t < batch.tagCount) yield this.output();
  }

  private tag(): number {
    return this.tags[this.t++] as number;
  }

  /**
   * The next number; an integer as a small integer where it is one (line numbers, stage ids,
   * counts), as the parser makes them: a double read from the array would otherwise be stored
   * boxed in every record, and make the records' fields doubles for the code that reads them.
   */
  private number(): number {
    const v = this.numbers[this.n++] as number;
    const i = v | 0;
    return i === v && (i !== 0 || 1 / v > 0) ? i : v;
  }

  private string(): string {
    return this.strings[this.numbers[this.n++] as number] as string;
  }

  private nullableNumber(): number | null {
    return this.tag() === NULL_VALUE ? null : this.number();
  }

  private nullableString(): string | null {
    return this.tag() === NULL_VALUE ? null : this.string();
  }

  private output(): ParseOutput {
    this.tag(); // OUTPUT
    const debug = this.tag();
    const firstLogTime = this.nullableString();
    const records: LogRecord[] = [];
    let problems: ParseProblem[] = [];
    for (let tag = this.tag(); tag !== OUTPUT_END; tag = this.tag()) {
      switch (tag) {
        case STAGE_TABLE:
          records.push(this.stageTable());
          break;
        case TRANSFER_TABLE:
          records.push(this.transferTable());
          break;
        case REQUEST_E2E:
          records.push(this.requestE2E());
          break;
        case OMNI_TIMING:
          records.push(this.omniTiming());
          break;
        case OVERALL_SUMMARY:
          records.push(this.overallSummary());
          break;
        case SIDE_RECORD:
          records.push(this.side[this.s++] as LogRecord);
          break;
        case PROBLEMS: {
          const count = this.number();
          problems = this.side.slice(this.s, this.s + count) as ParseProblem[];
          this.s += count;
          break;
        }
        default:
          throw new Error(`packed parse output: unknown tag ${tag}`);
      }
    }
    // As the parser builds it: debugLines, then firstLogTime once a prefixed line was read.
    return {
      records,
      problems,
      ...(debug === DEBUG_ABSENT ? {} : { debugLines: debug === DEBUG_TRUE }),
      ...(firstLogTime === null ? {} : { firstLogTime }),
    };
  }

  private header(): LogHeader | null {
    const how = this.tag();
    if (how === NULL_OBJECT) return null;
    if (how === SENT_OBJECT) return this.headers.objects[this.number()] as LogHeader;
    const header: LogHeader = Object.freeze({
      level: this.string(),
      timestamp: this.string(),
      file: this.string(),
      fileLine: this.number(),
      process: this.nullableString(),
      stagePrefix: this.nullableNumber(),
    });
    this.headers.add(header);
    return header;
  }

  private identity(): RecordIdentity {
    if (this.tag() === SENT_OBJECT) return this.identities.objects[this.number()] as RecordIdentity;
    const identity = this.strings2();
    this.identities.add(identity);
    return identity;
  }

  private strings2(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let count = this.number(); count > 0; count--) {
      const key = this.string();
      out[key] = this.string();
    }
    return out;
  }

  private fields(): FieldMap {
    if (this.tag() === SIDE_FIELDS) return this.side[this.s++] as FieldMap;
    const layout = this.layouts[this.number()] as { readonly names: readonly string[]; readonly schema: FieldSchema };
    const count = layout.names.length;
    const values = this.values;
    const extras = this.extras;
    let extra = false;
    for (let i = 0; i < count; i++) {
      const kind = this.tag();
      if (kind === CELL_NUMBER) {
        // A cell's number as the parser reads it: a double.
        values[i] = this.numbers[this.n++] as number;
        extras[i] = undefined;
        continue;
      }
      extra = true;
      if (kind === CELL_SAMPLED) {
        const value = this.numbers[this.n++] as number;
        extras[i] = measured(value, this.number());
      } else if (kind === CELL_NONE) extras[i] = NOT_MEASURED;
      else if (kind === CELL_BLANK) extras[i] = BLANK;
      else extras[i] = this.texts.cell(this.string());
    }
    return buildFieldMap(layout.schema, extra ? this.extraCells : this.plainCells);
  }

  private stageTable(): StageTableRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const columns: StageColumn[] = [];
    for (let count = this.number(); count > 0; count--) {
      const column = this.string();
      const stageId = this.nullableNumber();
      const segment = this.number();
      if (this.tag() === ABSENT) columns.push({ column, stageId, segment, fields: this.fields() });
      else {
        const label = this.string();
        columns.push({ column, stageId, segment, label, fields: this.fields() });
      }
    }
    const rows = (this.layouts[this.number()] as { readonly names: readonly string[] }).names;
    const complete = this.tag() === 1;
    return { kind: 'stageTable', line, header, requestId, identity, columns, rows, complete };
  }

  private transferTable(): TransferTableRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const edges: TransferEdge[] = [];
    for (let count = this.number(); count > 0; count--) {
      const edge = this.string();
      const fromStage = this.nullableNumber();
      const toStage = this.nullableNumber();
      edges.push({ edge, fromStage, toStage, fields: this.fields() });
    }
    const complete = this.tag() === 1;
    return { kind: 'transferTable', line, header, requestId, identity, edges, complete };
  }

  private requestE2E(): RequestE2ERecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const fields = this.fields();
    const complete = this.tag() === 1;
    return { kind: 'requestE2E', line, header, requestId, identity, fields, complete };
  }

  private overallSummary(): OverallSummaryRecord {
    const line = this.number();
    const header = this.header();
    const fields = this.fields();
    const complete = this.tag() === 1;
    return { kind: 'overallSummary', line, header, fields, complete };
  }

  private omniTiming(): OmniTimingRecord {
    const line = this.number();
    const header = this.header();
    const requestId = this.string();
    const identity = this.identity();
    const totalS = this.nullableNumber();
    const preprocessS = this.nullableNumber();
    const engineS = this.nullableNumber();
    const stages: { stageId: number; label: string | null; seconds: number }[] = [];
    for (let count = this.number(); count > 0; count--) {
      const stageId = this.number();
      const label = this.nullableString();
      stages.push({ stageId, label, seconds: this.number() });
    }
    const transfers: { fromStage: number; toStage: number; ms: number }[] = [];
    for (let count = this.number(); count > 0; count--) {
      const fromStage = this.number();
      const toStage = this.number();
      transfers.push({ fromStage, toStage, ms: this.number() });
    }
    const ar2diffusionMs = this.nullableNumber();
    const extra = this.strings2();
    return {
      kind: 'omniTiming',
      line,
      header,
      requestId,
      identity,
      totalS,
      preprocessS,
      engineS,
      stages,
      transfers,
      ar2diffusionMs,
      extra,
    };
  }
}
