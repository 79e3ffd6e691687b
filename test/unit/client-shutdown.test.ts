// The language client's quiet stop (src/shutdown.ts) with fakes: provider calls once the stop
// began answer nothing, the log closes only after the client has stopped, and a write to the
// closed log is dropped (VS Code's channel throws "Channel has been closed"). The same with a
// real VS Code and language server: test/editor/suite/client-shutdown.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closableLog, closeClientThenLog, unlessStopping } from '../../src/shutdown';

/** An output channel as VS Code's behaves: every write after dispose throws. */
class FakeChannel {
  readonly lines: string[] = [];
  readonly logLevel = 2;
  private disposed = false;
  info(line: string): void {
    if (this.disposed) throw new Error('Channel has been closed');
    this.lines.push(line);
  }
  appendLine(line: string): void {
    this.info(line);
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('client shutdown', () => {
  test('a provider call answers as usual until the stop begins; then it is not made, and one in flight that fails answers nothing', async () => {
    let stopping = false;
    assert.equal(
      await unlessStopping(
        () => stopping,
        () => Promise.resolve(7),
      ),
      7,
    );
    await assert.rejects(
      unlessStopping(
        () => stopping,
        () => Promise.reject(new Error('bad request')),
      ),
      /bad request/,
    );
    let fail: (err: Error) => void = () => undefined;
    const inFlight = unlessStopping(
      () => stopping,
      () => new Promise<number>((_, reject) => (fail = reject)),
    );
    stopping = true;
    fail(new Error('Channel has been closed'));
    assert.equal(await inFlight, undefined);
    let asked = false;
    assert.equal(
      await unlessStopping(
        () => stopping,
        () => ((asked = true), 1),
      ),
      undefined,
    );
    assert.equal(asked, false);
  });

  test('the log closes after the client has stopped, and what is written to it later is dropped', async () => {
    const channel = new FakeChannel();
    const log = closableLog(channel);
    let stopped: () => void = () => undefined;
    const stop = new Promise<void>((resolve) => (stopped = resolve));
    let disposed = false;
    const client = { dispose: () => (disposed = true), stop: () => stop };
    closeClientThenLog(client, log).dispose();
    assert.equal(disposed, true);
    log.info('stopping'); // the client logs while it stops
    stopped();
    await stop;
    await new Promise((r) => setImmediate(r));
    // The server process's exit is logged after the stop resolved.
    assert.doesNotThrow(() => log.appendLine('Server process exited successfully'));
    assert.deepEqual(channel.lines, ['stopping']);
    assert.equal(log.logLevel, 2);
  });
});
