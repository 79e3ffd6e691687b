// Lines that mark a server (re)start inside one log. The analysis numbers boots from
// them; every marker line is reported and the analysis decides which one starts a boot.
//   api-server-version   vLLM's `vLLM API server version 0.11.0` (api_server.py)
//   api-server-start     `Starting vLLM API server ...`
//   orchestrator-ready   vLLM-Omni's `[Orchestrator] All stages initialized successfully`
//   engine-init-stage0   `Initializing a V1 LLM engine ...` naming `stage0_replica0`
//                        (what a third-party parser counts boots by, docs/formats.md#server-starts-inside-one-log)

export const BOOT_MARKERS = [
  'api-server-version',
  'api-server-start',
  'orchestrator-ready',
  'engine-init-stage0',
] as const;
export type BootMarkerName = (typeof BOOT_MARKERS)[number];

/** Which boot marker the message is, or null. */
export function bootMarkerOf(message: string): BootMarkerName | null {
  if (message.includes('vLLM API server version')) return 'api-server-version';
  if (message.includes('Starting vLLM API server')) return 'api-server-start';
  if (message.includes('[Orchestrator] All stages initialized successfully')) return 'orchestrator-ready';
  if (message.includes('Initializing a V1 LLM engine') && message.includes('stage0_replica0'))
    return 'engine-init-stage0';
  return null;
}
