// The bundled sample as logrotate leaves it in `dir`: two older parts (the oldest compressed) and
// the current log, cut inside tables (a record runs on from one file into the next) and, the
// second cut, inside a line, as copytruncate cuts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');

/** Writes server.log.2.gz, server.log.1 and server.log into `dir`; returns the three parts of the sample, oldest first. */
export function rotatedSample(dir: string): Buffer[] {
  const text = fs.readFileSync(SAMPLE);
  const lines = text.toString('utf8').split(/(?<=\n)/);
  const first = Buffer.byteLength(lines.slice(0, 503).join(''));
  const second = Buffer.byteLength(lines.slice(0, 977).join('')) + 30;
  const parts = [text.subarray(0, first), text.subarray(first, second), text.subarray(second)];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'server.log.2.gz'), zlib.gzipSync(parts[0] as Buffer));
  fs.writeFileSync(path.join(dir, 'server.log.1'), parts[1] as Buffer);
  fs.writeFileSync(path.join(dir, 'server.log'), parts[2] as Buffer);
  return parts;
}
