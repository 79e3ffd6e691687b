// What reading the stats tables costs at the least, as a cold process: a plain Node script that
// reads the log's bytes (1 MB reads, as the floor process), finds each line's message after
// vLLM's prefix (plain or ANSI-coloured), and puts every numeric cell of every table row into a
// Float64Array column per field and table column, found by the header row's column offsets (the
// tables are fixed-width). No string per line, no record objects, no analysis. It is not a
// parser (no continuation lines, no interleaved processes, no hidden rows, no one-line records):
// it is the per-byte work a parser of packed rows would keep, to set beside the floor process
// and `stage-lens analyze` (docs/performance.md). Prints its counts and the sum of each vllm_*
// field, which `analyze --format json` must agree with on the bench's logs:
//   node scripts/bench/byteReader.cjs <log>
'use strict';
const { openSync, readSync, closeSync } = require('node:fs');

const READ_BYTES = 1 << 20;
const PIPE = 0x7c;
const SPACE = 0x20;
const NONE = Number.NEGATIVE_INFINITY;
const BLANK = Number.POSITIVE_INFINITY;

function readTables(path) {
  const fd = openSync(path, 'r');
  let buf = Buffer.allocUnsafe(READ_BYTES * 2);
  let have = 0;
  const fieldIds = new Map();
  const columns = [];
  const lengths = [];
  const pipes = new Int32Array(64);
  let pipeCount = 0;
  const counts = { lines: 0, tables: 0, requests: 0, rows: 0, values: 0, none: 0, blank: 0, text: 0 };

  function add(id, column, v) {
    const k = id * 64 + column;
    let values = columns[k];
    if (values === undefined) {
      values = columns[k] = new Float64Array(1024);
      lengths[k] = 0;
    }
    const n = lengths[k];
    if (n === values.length) {
      const grown = new Float64Array(n * 2);
      grown.set(values);
      values = columns[k] = grown;
    }
    values[n] = v;
    lengths[k] = n + 1;
  }

  /** A cell's number (digits, thousands commas, decimals; "1.5 (n=3)" reads 1.5), NONE, BLANK or NaN for text. */
  function cellValue(b, s, e) {
    while (s < e && b[s] === SPACE) s++;
    while (e > s && b[e - 1] === SPACE) e--;
    if (s === e) return BLANK;
    if (b[s] === 0x4e && b[s + 1] === 0x6f && b[s + 2] === 0x6e && b[s + 3] === 0x65 && e - s === 4) return NONE;
    const negative = b[s] === 0x2d;
    let i = negative ? s + 1 : s;
    const digitsFrom = i;
    let whole = 0;
    for (; i < e; i++) {
      const c = b[i];
      if (c >= 0x30 && c <= 0x39) whole = whole * 10 + (c - 0x30);
      else if (c !== 0x2c) break;
    }
    if (i === digitsFrom) return Number.NaN;
    let v = whole;
    if (i < e && b[i] === 0x2e) {
      let fraction = 0;
      let scale = 1;
      for (i++; i < e; i++) {
        const c = b[i];
        if (c < 0x30 || c > 0x39) break;
        fraction = fraction * 10 + (c - 0x30);
        scale *= 10;
      }
      v = whole + fraction / scale;
    }
    return negative ? -v : v;
  }

  function line(b, s, e) {
    counts.lines++;
    // The message follows the first `]` after the level (it closes `[file.py:line]`), then an
    // ANSI reset when the prefix is coloured, then one space.
    let m = b.indexOf(0x5d, s + 20);
    if (m < 0 || m >= e) return;
    m++;
    if (b[m] === 0x1b) {
      while (m < e && b[m] !== 0x6d) m++;
      m++;
    }
    m++;
    if (m >= e) return;
    const c = b[m];
    if (c === 0x5b) {
      counts.tables++;
      if (b[m + 1] === 0x53 && b[m + 2] === 0x74) counts.requests++; // [StageRequestStats
      return;
    }
    if (c !== PIPE) return;
    if (b[m + 2] === 0x46 && b[m + 3] === 0x69 && b[m + 4] === 0x65 && b[m + 7] === SPACE) {
      // `| Field |`: the header, whose pipes every row of the table repeats at the same offsets.
      pipeCount = 0;
      for (let i = m; i < e && pipeCount < pipes.length; i++) if (b[i] === PIPE) pipes[pipeCount++] = i - m;
      return;
    }
    let nameEnd = m + 2;
    while (nameEnd < e && b[nameEnd] !== SPACE) nameEnd++;
    const name = b.latin1Slice(m + 2, nameEnd);
    let id = fieldIds.get(name);
    if (id === undefined) {
      id = fieldIds.size;
      fieldIds.set(name, id);
    }
    counts.rows++;
    for (let k = 1; k + 1 < pipeCount; k++) {
      const v = cellValue(b, m + pipes[k] + 1, m + pipes[k + 1]);
      if (v === NONE) counts.none++;
      else if (v === BLANK) counts.blank++;
      else if (Number.isNaN(v)) counts.text++;
      else {
        add(id, k, v);
        counts.values++;
      }
    }
  }

  for (;;) {
    if (have > buf.length - READ_BYTES) {
      const grown = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(grown, 0, 0, have);
      buf = grown;
    }
    const n = readSync(fd, buf, have, READ_BYTES, null);
    if (n === 0) break;
    have += n;
    let s = 0;
    for (let nl = buf.indexOf(0x0a, s); nl !== -1 && nl < have; nl = buf.indexOf(0x0a, s)) {
      line(buf, s, nl);
      s = nl + 1;
    }
    buf.copy(buf, 0, s, have);
    have -= s;
  }
  closeSync(fd);

  const sums = {};
  for (const [name, id] of fieldIds) {
    if (!name.startsWith('vllm_')) continue;
    let sum = 0;
    for (let k = 1; k < 64; k++) {
      const values = columns[id * 64 + k];
      for (let i = 0; values !== undefined && i < lengths[id * 64 + k]; i++) sum += values[i];
    }
    sums[name] = Math.round(sum * 1000) / 1000;
  }
  return { ...counts, fields: fieldIds.size, sums };
}

if (require.main === module) process.stdout.write(JSON.stringify(readTables(process.argv[2])) + '\n');
module.exports = { readTables };
