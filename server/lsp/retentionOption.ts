// Retention's first limits: the client sends its settings as initializationOptions.retention
// (then stageLens/setRetention whenever they change, see requestTable.ts, and hears which
// saved sessions were deleted through stageLens/sessionsRemoved).
import { retentionFrom } from '../capture/retention';

/** initializationOptions.retention, when the client sent it. */
export function retentionOption(initializationOptions: unknown): ReturnType<typeof retentionFrom> {
  const options =
    typeof initializationOptions === 'object' && initializationOptions !== null
      ? (initializationOptions as Record<string, unknown>)['retention']
      : undefined;
  return retentionFrom(options);
}
