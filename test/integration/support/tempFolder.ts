// A temporary folder for one test file's real files (logs written, rotated, piped), removed
// when the file's tests have run.
import { after } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A new folder under the system's temporary one, its name starting with `prefix`. */
export function tempFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
