// The floor process of the cold benchmark (scripts/bench/cold.ts): what any Node program
// that reads a log pays, start-up included. Reads the file in 1 MB reads, decodes UTF-8
// with the standard streaming TextDecoder and splits it into line strings; prints the
// line count. Plain JavaScript, loaded without a transpiler, as a user's script would be.
// Required as a module it runs nothing and exports the loop (coldParse.ts times it warm).
'use strict';
const { openSync, readSync, closeSync } = require('node:fs');

/** Reads, decodes and splits the file at `path`; returns its line and character counts. */
function readLines(path) {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lines = 0;
  let chars = 0;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    if (n === 0) break;
    const text = decoder.decode(buffer.subarray(0, n), { stream: true });
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      const line = pos === 0 && carry !== '' ? carry + text.slice(0, nl) : text.slice(pos, nl);
      carry = '';
      lines++;
      chars += line.length;
      pos = nl + 1;
    }
    carry += text.slice(pos);
  }
  closeSync(fd);
  if (carry !== '') lines++;
  return { lines, chars };
}

if (require.main === module) {
  const path = process.argv[2];
  if (path === undefined) {
    process.stderr.write('usage: node lineFloor.cjs <file>\n');
    process.exit(2);
  }
  const { lines, chars } = readLines(path);
  process.stdout.write(`${lines} lines, ${chars} characters\n`);
} else {
  module.exports = { readLines };
}
