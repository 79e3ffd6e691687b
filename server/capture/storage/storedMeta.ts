// The shape check of a stored session.json. Anything can be in that file (a crash mid-
// write on a filesystem without atomic rename, a hand edit, another program's version):
// a file that is not a session's metadata is refused with the first thing wrong in it, so
// the session is skipped with a message instead of breaking whatever reads it. Fields
// this version does not know are kept as they are.
import type {
  AttachParams,
  ImportParams,
  LaunchParams,
  ScrapeParams,
  SessionInfo,
  SessionSourceKind,
  SessionStatus,
  TailParams,
} from '../../protocol';
import type { ChunkStream } from '../source';
import type { FileLines } from '../../core/joinedLines';

/**
 * Where a session's input broke off (a gzip file cut short): stored because the stored bytes
 * are the log before the break and cannot say it. Read into the analysis as a parse problem
 * (input-gzip-damaged) when the stream ends, at its last line, live and reopened alike; an
 * imported scrape's is its finding instead, after the scrape's own, as `analyze` lists them.
 */
export interface StoredInputDamage {
  readonly stream: ChunkStream;
  /** The parse problem's sentence (gzipInput.ts). */
  readonly message: string;
  readonly gzipDamaged: { readonly logBytes: number };
  /**
   * 'scrape': the data was of a /metrics scrape (an imported one), whose finding says its series
   * before the break are read (scrapeGzipDamagedFinding), not its requests. Absent: a log.
   */
  readonly input?: 'scrape';
}

/** What is needed to describe and reopen a session: the contents of its session.json. */
export interface SessionMeta {
  readonly info: SessionInfo;
  readonly launch?: LaunchParams;
  readonly tail?: TailParams;
  readonly scrape?: ScrapeParams;
  readonly import?: ImportParams;
  readonly attach?: AttachParams;
  /** Absent when the input did not break off. */
  readonly inputDamage?: StoredInputDamage;
  /**
   * An import of several files read as one log: where each file's lines are in the line numbers
   * of the session's records and problems (the stored bytes are the files joined and cannot say
   * it). Absent for one input.
   */
  readonly fileLines?: readonly FileLines[];
}

/** What a session's info says of its input damage: the log bytes before the break, or nothing for a whole input. */
export function inputDamageInfo(meta: Pick<SessionMeta, 'inputDamage'>): Pick<SessionInfo, 'gzipDamaged'> {
  return meta.inputDamage === undefined ? {} : { gzipDamaged: { logBytes: meta.inputDamage.gzipDamaged.logBytes } };
}

const KINDS: readonly SessionSourceKind[] = ['launch', 'tail', 'scrape', 'attach', 'import', 'prometheus'];
const STREAMS: readonly ChunkStream[] = ['stdout', 'stderr', 'file'];
const STATUSES: readonly SessionStatus[] = ['starting', 'running', 'stopped', 'exited', 'crashed', 'error'];

export type MetaCheck =
  { readonly ok: true; readonly meta: SessionMeta } | { readonly ok: false; readonly problem: string };

type Fields = Record<string, unknown>;

function isObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a number or a boolean (JSON has nothing else left)
  return `${typeof v} ${String(v)}`;
}

/** Collects the first problem; every check returns whether it passed. */
class Checker {
  problem: string | null = null;

  fail(where: string, what: string, value: unknown): false {
    this.problem ??= `${where} is ${describe(value)}, not ${what}`;
    return false;
  }

  string(o: Fields, key: string, where: string): boolean {
    return typeof o[key] === 'string' || this.fail(`${where}.${key}`, 'a text', o[key]);
  }

  optionalString(o: Fields, key: string, where: string): boolean {
    return o[key] === undefined || this.string(o, key, where);
  }

  stringOrNull(o: Fields, key: string, where: string): boolean {
    return o[key] === null || typeof o[key] === 'string' || this.fail(`${where}.${key}`, 'a text or null', o[key]);
  }

  count(o: Fields, key: string, where: string): boolean {
    const v = o[key];
    return (
      (typeof v === 'number' && Number.isInteger(v) && v >= 0) ||
      this.fail(`${where}.${key}`, 'a count (a whole number ≥ 0)', v)
    );
  }

  finite(o: Fields, key: string, where: string): boolean {
    const v = o[key];
    return (typeof v === 'number' && Number.isFinite(v)) || this.fail(`${where}.${key}`, 'a number', v);
  }

  oneOf<T extends string>(o: Fields, key: string, where: string, values: readonly T[]): boolean {
    const v = o[key];
    return (
      (typeof v === 'string' && (values as readonly string[]).includes(v)) ||
      this.fail(`${where}.${key}`, `one of ${values.join(', ')}`, v)
    );
  }

  stringList(o: Fields, key: string, where: string): boolean {
    const v = o[key];
    return (
      (Array.isArray(v) && v.every((x) => typeof x === 'string')) || this.fail(`${where}.${key}`, 'a list of texts', v)
    );
  }

  stringMap(o: Fields, key: string, where: string): boolean {
    const v = o[key];
    return (
      v === undefined ||
      (isObject(v) && Object.values(v).every((x) => typeof x === 'string')) ||
      this.fail(`${where}.${key}`, 'a map of texts', v)
    );
  }

  object(o: Fields, key: string, where: string): Fields | null {
    const v = o[key];
    if (isObject(v)) return v;
    this.fail(`${where}.${key}`, 'an object', v);
    return null;
  }

  /** An optional parameters object: absent, or an object passing `fields`. */
  optionalParams(o: Fields, key: string, fields: (p: Fields, where: string) => boolean): boolean {
    if (o[key] === undefined) return true;
    const p = this.object(o, key, 'session.json');
    return p !== null && fields(p, `session.json.${key}`);
  }
}

function checkInfo(c: Checker, info: Fields): boolean {
  const w = 'session.json.info';
  return (
    c.string(info, 'id', w) &&
    c.oneOf(info, 'kind', w, KINDS) &&
    c.string(info, 'description', w) &&
    c.finite(info, 'startedAt', w) &&
    c.oneOf(info, 'status', w, STATUSES) &&
    c.count(info, 'requestCount', w) &&
    c.count(info, 'problemCount', w) &&
    c.stringOrNull(info, 'deployConfig', w) &&
    c.optionalString(info, 'loggedDeployConfig', w) &&
    c.stringMap(info, 'stageRoles', w) &&
    c.stringOrNull(info, 'lastError', w) &&
    checkExit(c, info['exit']) &&
    checkLogSpan(c, info['logSpan']) &&
    (info['importOrdinal'] === undefined || c.count(info, 'importOrdinal', w)) &&
    (info['earlierFiles'] === undefined || c.count(info, 'earlierFiles', w)) &&
    (info['importedScrape'] === undefined ||
      info['importedScrape'] === true ||
      c.fail(`${w}.importedScrape`, 'true', info['importedScrape']))
  );
}

function checkInputDamage(c: Checker, damage: unknown): boolean {
  const w = 'session.json.inputDamage';
  if (damage === undefined) return true;
  if (!isObject(damage)) return c.fail(w, 'an object', damage);
  const gzip = c.object(damage, 'gzipDamaged', w);
  return (
    c.oneOf(damage, 'stream', w, STREAMS) &&
    c.string(damage, 'message', w) &&
    (damage['input'] === undefined || c.oneOf(damage, 'input', w, ['scrape'])) &&
    gzip !== null &&
    c.count(gzip, 'logBytes', `${w}.gzipDamaged`)
  );
}

function checkFileLines(c: Checker, files: unknown): boolean {
  const w = 'session.json.fileLines';
  if (files === undefined) return true;
  if (!Array.isArray(files)) return c.fail(w, 'a list', files);
  return files.every((f: unknown, i) => {
    const at = `${w}[${i}]`;
    if (!isObject(f)) return c.fail(at, 'an object', f);
    return c.string(f, 'file', at) && c.count(f, 'firstLine', at) && c.count(f, 'lines', at);
  });
}

/** Absent in metadata saved without it, null before a timestamped request. */
function checkLogSpan(c: Checker, span: unknown): boolean {
  const w = 'session.json.info.logSpan';
  if (span === undefined || span === null) return true;
  if (!isObject(span)) return c.fail(w, 'an object or null', span);
  return c.string(span, 'first', w) && c.string(span, 'last', w);
}

function checkExit(c: Checker, exit: unknown): boolean {
  const w = 'session.json.info.exit';
  if (exit === null) return true;
  if (!isObject(exit)) return c.fail(w, 'an object or null', exit);
  const code = exit['code'];
  if (!(code === null || (typeof code === 'number' && Number.isInteger(code))))
    return c.fail(`${w}.code`, 'a whole number or null', code);
  return c.stringOrNull(exit, 'signal', w);
}

/**
 * Checks a parsed session.json found in the storage folder named `folderName`. Its id must
 * be that name: a copied or renamed folder would otherwise answer for another session.
 * null: a folder anywhere else (a copy kept as a baseline), whatever its name.
 */
export function checkSessionMeta(raw: unknown, folderName: string | null): MetaCheck {
  const c = new Checker();
  if (!isObject(raw)) return { ok: false, problem: `session.json is ${describe(raw)}, not an object` };
  const info = c.object(raw, 'info', 'session.json');
  const valid =
    info !== null &&
    checkInfo(c, info) &&
    c.optionalParams(
      raw,
      'launch',
      (p, w) =>
        c.stringList(p, 'argv', w) &&
        c.string(p, 'cwd', w) &&
        c.stringMap(p, 'env', w) &&
        c.optionalString(p, 'deployConfig', w) &&
        c.optionalString(p, 'metricsUrl', w),
    ) &&
    c.optionalParams(
      raw,
      'tail',
      (p, w) =>
        c.string(p, 'path', w) &&
        (typeof p['fromStart'] === 'boolean' || c.fail(`${w}.fromStart`, 'true or false', p['fromStart'])) &&
        c.optionalString(p, 'deployConfig', w),
    ) &&
    c.optionalParams(
      raw,
      'scrape',
      (p, w) => c.string(p, 'url', w) && (p['intervalMs'] === undefined || c.finite(p, 'intervalMs', w)),
    ) &&
    c.optionalParams(
      raw,
      'import',
      (p, w) =>
        c.string(p, 'path', w) &&
        (p['earlier'] === undefined || c.stringList(p, 'earlier', w)) &&
        c.optionalString(p, 'deployConfig', w),
    ) &&
    c.optionalParams(raw, 'attach', (p, w) => c.count(p, 'pid', w)) &&
    checkInputDamage(c, raw['inputDamage']) &&
    checkFileLines(c, raw['fileLines']);
  if (!valid || info === null) return { ok: false, problem: c.problem ?? 'session.json is not a session' };
  if (folderName !== null && info['id'] !== folderName)
    return {
      ok: false,
      problem: `session.json names the session ${JSON.stringify(info['id'])}, but its folder is ${JSON.stringify(folderName)}`,
    };
  // The per-window view (SessionInfo.access) is never part of the stored metadata.
  const { access: _access, ...storedInfo } = info;
  return { ok: true, meta: { ...(raw as object), info: storedInfo as unknown as SessionInfo } as SessionMeta };
}

/** Parses and checks the text of a session.json. */
export function parseSessionMeta(text: string, folderName: string | null): MetaCheck {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `session.json is not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  return checkSessionMeta(raw, folderName);
}
