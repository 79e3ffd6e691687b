// The language client's stop, quiet (a window closing, the extension deactivating). VS Code
// keeps asking for hovers, inlay hints, code actions and lenses of an open deploy YAML until the
// very end, and disposes an extension's subscriptions in order without waiting; a write to a
// disposed output channel throws "Channel has been closed", which the extension host logs as
// "provider FAILED: …". So provider calls after the stop began are not made, one in flight that
// fails answers nothing (nobody is left to show it), the log closes after the client has
// stopped, and a write to the closed log is dropped.
import type { Middleware } from 'vscode-languageclient/node';

type Answer<T> = T | undefined | null | Thenable<T | undefined | null>;

/** `call()`'s answer; once `stopping()` holds, none (not asked, or its failure dropped). */
export async function unlessStopping<T>(stopping: () => boolean, call: () => Answer<T>): Promise<T | undefined | null> {
  if (stopping()) return undefined;
  try {
    return await call();
  } catch (err) {
    if (stopping()) return undefined;
    throw err;
  }
}

/** Middleware for every provider the Stage Lens server offers (server/lsp/deployFeatures.ts). */
export function quietWhileStopping(stopping: () => boolean): Middleware {
  return {
    provideHover: (document, position, token, next) => unlessStopping(stopping, () => next(document, position, token)),
    provideCodeActions: (document, range, context, token, next) =>
      unlessStopping(stopping, () => next(document, range, context, token)),
    resolveCodeAction: (item, token, next) => unlessStopping(stopping, () => next(item, token)),
    provideInlayHints: (document, viewPort, token, next) =>
      unlessStopping(stopping, () => next(document, viewPort, token)),
    resolveInlayHint: (item, token, next) => unlessStopping(stopping, () => next(item, token)),
    provideCodeLenses: (document, token, next) => unlessStopping(stopping, () => next(document, token)),
    resolveCodeLens: (codeLens, token, next) => unlessStopping(stopping, () => next(codeLens, token)),
  };
}

/** The output channel methods that write to it or show it: after dispose VS Code makes them throw. */
const WRITES: ReadonlySet<PropertyKey> = new Set([
  'append',
  'appendLine',
  'replace',
  'clear',
  'show',
  'hide',
  'trace',
  'debug',
  'info',
  'warn',
  'error',
]);

/**
 * The channel, whose writes after its dispose are dropped instead of throwing "Channel has been
 * closed": the language client still logs when its server process exits, which is after its stop
 * has resolved, and a view's answer may still be logged while the window closes.
 */
export function closableLog<T extends object>(channel: T): T {
  let closed = false;
  return new Proxy(channel, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (key === 'dispose')
        return (...args: unknown[]): unknown => {
          closed = true;
          return method.apply(target, args);
        };
      if (WRITES.has(key)) return (...args: unknown[]): unknown => (closed ? undefined : method.apply(target, args));
      return method.bind(target);
    },
  });
}

/** What `stop` needs of the client: src/client.ts. */
export interface StoppableClient {
  /** Stops the language server once; resolves when it has stopped (or given up), never rejects. */
  stop(): Promise<void>;
  dispose(): void;
}

/**
 * The client and the log it writes to, as one subscription: VS Code disposes an extension's
 * subscriptions in order without waiting, so the log is closed only once the client has
 * stopped (it logs while stopping; a closed channel throws "Channel has been closed").
 */
export function closeClientThenLog(client: StoppableClient, log: { dispose(): void }): { dispose(): void } {
  return {
    dispose: () => {
      client.dispose();
      void client.stop().then(() => log.dispose());
    },
  };
}
