// What a session's line in a quick pick (Compare Sessions..., Open Session...) says beside its
// title. Free of the VS Code API (unit-tested).
import type { SessionInfo } from '../server/protocol';
import { countOf } from '../server/shared';
import { statusWords } from '../webview/shared/sessionStatus';

/** "1 request · stopped", "6 requests · running". */
export function sessionPickDescription(s: Pick<SessionInfo, 'requestCount' | 'kind' | 'status' | 'exit'>): string {
  return `${countOf(s.requestCount, 'request')} · ${statusWords(s)}`;
}
