// Writing a report to stdout with backpressure: a write that fills stdout's buffer (a slow
// pipe, a terminal) waits for 'drain' before the next one. A failed write is handled once, for
// every command, in main.ts.

/** Writes `text` to stdout; resolves once stdout can take more. */
export function writeOut(text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}
