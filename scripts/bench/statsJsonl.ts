// Writes log_utils.py's two JSON stats files of one run as one input, for the memory of the
// records that wait for their other file's record (legacyRequests.ts): `files` is the overall
// file then the orchestrator file (every overall_request waits for its twin, up to MAX_HELD),
// `pairs` each overall_request followed at once by its orchestrator_request_e2e (none waits).
//   node --import tsx scripts/bench/statsJsonl.ts <out> <requests> files|pairs
import { closeSync, openSync, writeSync } from 'node:fs';

const [out, countText, order] = process.argv.slice(2);
const count = Number(countText);
if (out === undefined || !(count > 0) || (order !== 'files' && order !== 'pairs')) {
  process.stderr.write('usage: statsJsonl.ts <out> <requests> files|pairs\n');
  process.exit(2);
}

const id = (i: number): string =>
  `${i}_${(0x5d0b5a4e + i * 7919).toString(16).padStart(8, '0')}-7c1f-4d8e-9a43-2f6c1b7e9d10`;

function overall(i: number): string {
  const s0 = 400 + (i % 97);
  const s1 = 1100 + (i % 389);
  return dumps({
    type: 'overall_request',
    request_id: id(i),
    final_stage_id: 1,
    e2e_time_ms: s0 + s1 + 200.5,
    num_tokens_out: 512 + (i % 64),
    service_time_ms: s0 + s1,
    transfer_time_ms: 11.5,
    queue_time_ms: 189,
    transfers_total_time_ms: 11.5,
    transfers_total_bytes: 2457600,
    stages: { '0': { stage_gen_time_ms: s0, num_tokens_out: 96 }, '1': { stage_gen_time_ms: s1, num_tokens_out: 512 } },
  });
}

function orchestrator(i: number): string {
  const s0 = 400 + (i % 97);
  const s1 = 1100 + (i % 389);
  return dumps({
    type: 'orchestrator_request_e2e',
    request_id: id(i),
    final_stage_id: 1,
    e2e_time_ms: s0 + s1 + 200.5,
    num_tokens_out: 512 + (i % 64),
    e2e_time_per_token_ms: (s0 + s1 + 200.5) / (512 + (i % 64)),
  });
}

/** As Python's json.dumps writes it (`", "` and `": "` between items), which the reader tells the files by. */
const dumps = (value: object): string => JSON.stringify(value).replace(/":/g, '": ').replace(/,"/g, ', "');

const fd = openSync(out, 'w');
let buffer: string[] = [];
const write = (line: string): void => {
  buffer.push(line);
  if (buffer.length >= 4096) {
    writeSync(fd, buffer.join('\n') + '\n');
    buffer = [];
  }
};
if (order === 'files') {
  for (let i = 0; i < count; i++) write(overall(i));
  for (let i = 0; i < count; i++) write(orchestrator(i));
} else {
  for (let i = 0; i < count; i++) {
    write(overall(i));
    write(orchestrator(i));
  }
}
if (buffer.length > 0) writeSync(fd, buffer.join('\n') + '\n');
closeSync(fd);
