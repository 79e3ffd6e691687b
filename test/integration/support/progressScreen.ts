// What `analyze` shows on a terminal while it reads a file (server/cli/progress.ts), checked from
// the screen a pseudo-terminal recorded: progress lines naming the file and its size, then the
// line erased.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';

/** Asserts that `screen` shows `log`'s read progress, each line within the file's size, and ends by erasing it. */
export function assertReadProgressShown(screen: string, log: string): void {
  const lines = [...screen.matchAll(/\r\x1b\[Kstage-lens: reading (\S+): ([\d.]+) of ([\d.]+) MB \((\d+)%\)/g)];
  assert.ok(lines.length >= 1, `no progress line on the terminal: ${JSON.stringify(screen.slice(0, 300))}`);
  const size = (fs.statSync(log).size / 1048576).toFixed(1);
  for (const m of lines) {
    assert.equal(m[1], log);
    assert.equal(m[3], size);
    assert.ok(Number(m[2]) <= Number(size));
  }
  // The last thing on the terminal erases the line.
  assert.ok(screen.endsWith('\r\x1b[K'), `ends with ${JSON.stringify(screen.slice(-40))}`);
}
