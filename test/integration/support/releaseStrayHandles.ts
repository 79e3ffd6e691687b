// A test file's process ends when nothing holds its event loop; the runner waits for that end
// before the next file. Should a handle outlive a file's own cleanup (a pipe or child process
// some other process keeps open), the file would only end at the runner's time limit and fail
// though its tests passed. Some time after the cleanup, whatever still holds the loop is named
// on stderr and let go (unref), so the file ends and reports as its tests did; the timer itself
// holds nothing, so a file that ends on its own is not delayed.
interface Handle {
  readonly constructor?: { readonly name?: string };
  unref?(): void;
}

export function releaseStrayHandles(afterMs = 20_000): void {
  setTimeout(() => {
    const handles = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
    const names = handles.map((h) => h.constructor?.name ?? typeof h);
    process.stderr.write(
      `test process still held open ${afterMs} ms after its cleanup by: ${names.join(', ')}; letting go of them\n`,
    );
    for (const handle of handles) handle.unref?.();
  }, afterMs).unref();
}
