// A checker of the Chrome Trace Event Format (JSON Object Format) for the tests of the
// trace export, written from the format's rules and from what Perfetto's JSON importer
// needs (it is the viewer people use):
//  - the document is JSON; `traceEvents` is an array; `displayTimeUnit` is "ms" or "ns";
//  - every event has `ph`, and the fields its phase requires: name, pid, tid, ts (a finite
//    number >= 0, µs), `dur` >= 0 on X, `cat` and exactly one id (`id`, or `id2` with one of
//    local/global) on async b/e/n;
//  - metadata (M) events are process_name/thread_name (args.name a string),
//    process_sort_index/thread_sort_index (args.sort_index an integer) or process_labels;
//  - no top-level array value in an event (Perfetto's tokenizer rejects the file);
//  - async slices: events with the same (cat, id) form one tree on one process; in time
//    order (file order for equal ts, as Perfetto sorts) an `e` closes the innermost open
//    slice and has its name, never before its `b`; no two open slices with the same
//    (cat, id, name); nothing left open at the end;
//  - B/E nest per thread the same way.
// It returns the slices it paired so that tests can check their values.

export interface TraceSlice {
  readonly name: string;
  readonly cat: string;
  readonly id: string;
  readonly pid: number;
  readonly tid: number;
  readonly startUs: number;
  readonly endUs: number;
  readonly depth: number;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface TraceCheck {
  readonly errors: string[];
  readonly slices: TraceSlice[];
  /** pid -> process_name */
  readonly processNames: Map<number, string>;
  /** pid -> names of the first slice of each async tree (what Perfetto names the tracks) */
  readonly asyncTrackNames: Map<number, Set<string>>;
  readonly metadata: Record<string, unknown> | null;
  readonly eventCount: number;
}

const PHASES = new Set([
  'B',
  'E',
  'X',
  'i',
  'I',
  'C',
  'b',
  'n',
  'e',
  's',
  't',
  'f',
  'P',
  'N',
  'O',
  'D',
  'M',
  'V',
  'v',
  'R',
  'c',
  '(',
  ')',
]);
const METADATA_NAMES = new Set([
  'process_name',
  'process_labels',
  'process_sort_index',
  'thread_name',
  'thread_sort_index',
]);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isId = (v: unknown): boolean =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isInteger(v));

interface Open {
  readonly name: string;
  readonly startUs: number;
  readonly index: number;
  readonly args: Json;
  readonly pid: number;
  readonly tid: number;
}

interface AsyncEvent {
  readonly index: number;
  readonly ts: number;
  readonly ph: 'b' | 'e' | 'n';
  readonly event: Json;
  readonly tree: string;
  readonly id: string;
}

function idOf(event: Json, where: string, errors: string[]): { key: string; id: string } | null {
  const hasId = 'id' in event;
  const hasId2 = 'id2' in event;
  if (hasId === hasId2) {
    errors.push(`${where}: an async event needs exactly one of id / id2`);
    return null;
  }
  if (hasId) {
    if (!isId(event['id'])) {
      errors.push(`${where}: id must be a non-empty string or an integer`);
      return null;
    }
    return { key: `global:${String(event['id'])}`, id: String(event['id']) };
  }
  const id2 = event['id2'];
  if (
    !isObject(id2) ||
    Object.keys(id2).length !== 1 ||
    !(('local' in id2 && isId(id2['local'])) || ('global' in id2 && isId(id2['global'])))
  ) {
    errors.push(`${where}: id2 must be {"local": id} or {"global": id}`);
    return null;
  }
  // A local id is scoped to its process.
  return 'local' in id2
    ? { key: `local:${String(event['pid'])}:${String(id2['local'])}`, id: String(id2['local']) }
    : { key: `global:${String(id2['global'])}`, id: String(id2['global']) };
}

export function checkTrace(text: string): TraceCheck {
  const errors: string[] = [];
  const slices: TraceSlice[] = [];
  const processNames = new Map<number, string>();
  const asyncTrackNames = new Map<number, Set<string>>();
  const result = (metadata: Json | null, eventCount: number): TraceCheck => ({
    errors,
    slices,
    processNames,
    asyncTrackNames,
    metadata,
    eventCount,
  });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    errors.push(`not JSON: ${(err as Error).message}`);
    return result(null, 0);
  }
  if (!isObject(doc) || !Array.isArray(doc['traceEvents'])) {
    errors.push('not the JSON Object Format: expected an object with a traceEvents array');
    return result(null, 0);
  }
  if ('displayTimeUnit' in doc && doc['displayTimeUnit'] !== 'ms' && doc['displayTimeUnit'] !== 'ns')
    errors.push('displayTimeUnit must be "ms" or "ns"');
  const metadata = isObject(doc['metadata']) ? doc['metadata'] : null;
  const events = doc['traceEvents'] as unknown[];
  const asyncEvents: AsyncEvent[] = [];
  const syncEvents: { index: number; ts: number; event: Json }[] = [];

  events.forEach((event, index) => {
    const where = `event ${index}`;
    if (!isObject(event)) {
      errors.push(`${where}: not an object`);
      return;
    }
    for (const [key, value] of Object.entries(event))
      if (Array.isArray(value)) errors.push(`${where}: top-level array in "${key}" (Perfetto cannot read it)`);
    const ph = event['ph'];
    if (typeof ph !== 'string' || !PHASES.has(ph)) {
      errors.push(`${where}: unknown ph ${JSON.stringify(ph)}`);
      return;
    }
    if (typeof event['name'] !== 'string' || event['name'] === '')
      errors.push(`${where}: name must be a non-empty string`);
    if (!Number.isInteger(event['pid']) || (event['pid'] as number) < 0)
      errors.push(`${where}: pid must be a non-negative integer`);
    if ('args' in event && !isObject(event['args'])) errors.push(`${where}: args must be an object`);
    if (ph === 'M') {
      const name = String(event['name']);
      const args = isObject(event['args']) ? event['args'] : {};
      if (!METADATA_NAMES.has(name)) errors.push(`${where}: unknown metadata event ${name}`);
      if ('ts' in event && !isNonNegative(event['ts'])) errors.push(`${where}: ts must be a number >= 0`);
      if (name.startsWith('thread_') && !Number.isInteger(event['tid'])) errors.push(`${where}: ${name} needs a tid`);
      if ((name === 'process_name' || name === 'thread_name') && typeof args['name'] !== 'string')
        errors.push(`${where}: ${name} needs args.name`);
      if (name.endsWith('_sort_index') && !Number.isInteger(args['sort_index']))
        errors.push(`${where}: ${name} needs an integer args.sort_index`);
      if (name === 'process_labels' && typeof args['labels'] !== 'string')
        errors.push(`${where}: process_labels needs args.labels`);
      if (name === 'process_name' && typeof args['name'] === 'string')
        processNames.set(event['pid'] as number, args['name']);
      return;
    }
    if (!Number.isInteger(event['tid']) || (event['tid'] as number) < 0)
      errors.push(`${where}: tid must be a non-negative integer`);
    if (!isNonNegative(event['ts'])) {
      errors.push(`${where}: ts must be a finite number >= 0 (µs)`);
      return;
    }
    const ts = event['ts'];
    if (ph === 'X' && !isNonNegative(event['dur'])) errors.push(`${where}: X needs dur >= 0`);
    if (ph === 'b' || ph === 'e' || ph === 'n') {
      if (typeof event['cat'] !== 'string' || event['cat'] === '') errors.push(`${where}: async events need a cat`);
      const id = idOf(event, where, errors);
      if (id !== null)
        asyncEvents.push({ index, ts, ph, event, tree: `${String(event['cat'])}\u0000${id.key}`, id: id.id });
    } else if (ph === 'B' || ph === 'E') {
      syncEvents.push({ index, ts, event });
    }
  });

  // Viewers sort by ts; equal ts keep file order (Perfetto's sorter is stable).
  const byTime = <T extends { ts: number; index: number }>(a: T, b: T): number => a.ts - b.ts || a.index - b.index;
  asyncEvents.sort(byTime);
  const stacks = new Map<string, Open[]>();
  const treePid = new Map<string, number>();
  for (const a of asyncEvents) {
    const where = `event ${a.index} (${a.ph} ${String(a.event['name'])} id ${a.id})`;
    const pid = a.event['pid'] as number;
    const owner = treePid.get(a.tree);
    if (owner === undefined) treePid.set(a.tree, pid);
    else if (owner !== pid) errors.push(`${where}: async id used on pid ${owner} and pid ${pid}`);
    let stack = stacks.get(a.tree);
    if (stack === undefined) stacks.set(a.tree, (stack = []));
    const name = String(a.event['name']);
    if (a.ph === 'b') {
      if (stack.some((o) => o.name === name))
        errors.push(`${where}: a slice with the same cat, id and name is still open`);
      if (stack.length === 0 && owner === undefined) {
        let names = asyncTrackNames.get(pid);
        if (names === undefined) asyncTrackNames.set(pid, (names = new Set()));
        names.add(name);
      }
      stack.push({
        name,
        startUs: a.ts,
        index: a.index,
        args: isObject(a.event['args']) ? a.event['args'] : {},
        pid,
        tid: a.event['tid'] as number,
      });
    } else if (a.ph === 'e') {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        errors.push(`${where}: end without an open begin`);
        continue;
      }
      if (top.name !== name) {
        errors.push(
          `${where}: ends "${name}" but the innermost open slice is "${top.name}" (slices of one id must nest)`,
        );
        continue;
      }
      stack.pop();
      const endArgs = isObject(a.event['args']) ? a.event['args'] : {};
      slices.push({
        name,
        cat: String(a.event['cat']),
        id: a.id,
        pid: top.pid,
        tid: top.tid,
        startUs: top.startUs,
        endUs: a.ts,
        depth: stack.length,
        args: { ...top.args, ...endArgs },
      });
    }
  }
  for (const [tree, stack] of stacks)
    for (const o of stack)
      errors.push(`event ${o.index}: slice "${o.name}" (${tree.replace('\u0000', ' ')}) never ends`);

  syncEvents.sort(byTime);
  const threadStacks = new Map<string, { name: string; index: number }[]>();
  for (const s of syncEvents) {
    const key = `${String(s.event['pid'])}/${String(s.event['tid'])}`;
    let stack = threadStacks.get(key);
    if (stack === undefined) threadStacks.set(key, (stack = []));
    if (s.event['ph'] === 'B') stack.push({ name: String(s.event['name']), index: s.index });
    else if (stack.pop()?.name !== s.event['name'])
      errors.push(`event ${s.index}: E does not close the innermost B of its thread`);
  }
  for (const stack of threadStacks.values()) for (const o of stack) errors.push(`event ${o.index}: B never ends`);
  return result(metadata, events.length);
}
