// The typed request and notification helpers the request table (requestTable.ts) registers
// its handlers with: protocol method names checked against server/protocol.ts, failures
// answered as JSON-RPC errors with a message a user can read.
import type { Connection } from 'vscode-languageserver';
import { ResponseError, ErrorCodes } from 'vscode-languageserver';
import type {
  ClientNotificationMethod,
  ClientNotifications,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
} from '../protocol';

export type Handler<M extends ServerRequestMethod> = (
  params: RequestParams<M>,
) => RequestResult<M> | Promise<RequestResult<M>>;

export function handle<M extends ServerRequestMethod>(connection: Connection, method: M, handler: Handler<M>): void {
  connection.onRequest(method, async (params: RequestParams<M>) => {
    try {
      return await handler(params);
    } catch (err) {
      return new ResponseError(ErrorCodes.InvalidRequest, err instanceof Error ? err.message : String(err));
    }
  });
}

export function notify<M extends ClientNotificationMethod>(
  connection: Connection,
  method: M,
  payload: ClientNotifications[M],
): void {
  void connection.sendNotification(method, payload);
}
