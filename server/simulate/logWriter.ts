// Writes log text exactly as a vLLM-Omni API server prints it, using render.ts for the
// prefix, the tables and the CRLF continuation. Per finished request, in the order of
// the aggregator's build_and_log_summary(): [Overall Summary], [RequestE2EStats],
// [OmniTiming], [StageRequestStats], [TransferEdgeStats].
//
// Upstream logs every table with logger.debug and only [OmniTiming] at INFO (its
// log_timing_summary() builds no table unless the stats logger is enabled for DEBUG), so
// at the default INFO level a request prints one [OmniTiming] line and nothing else. The
// tables appear in debug mode (VLLM_LOGGING_LEVEL=DEBUG in the environment, or
// --debug-tables), where vLLM also prints relative file paths
// (`vllm_omni/metrics/stats.py`) for every line.
import type { LogClock } from './clock';
import {
  logPrefix,
  recordTitle,
  renderColumnsTable,
  renderFieldValueTable,
  renderLogRecord,
  renderTableRecord,
  type LogPrefixOptions,
} from './render';
import {
  e2eFields,
  omniTimingMessage,
  overallFields,
  stageColumns,
  transferColumns,
  type StatsBuild,
} from './stageFields';
import type { Micros, RequestRun } from './timeline';

type Level = LogPrefixOptions['level'];

/** Source files of the lines we print: [INFO-mode fileinfo, DEBUG-mode fileinfo, line]. */
export const SOURCES = {
  statsOverall: ['stats.py', 'vllm_omni/metrics/stats.py', 961],
  statsE2E: ['stats.py', 'vllm_omni/metrics/stats.py', 987],
  statsStage: ['stats.py', 'vllm_omni/metrics/stats.py', 1044],
  statsTransfer: ['stats.py', 'vllm_omni/metrics/stats.py', 1084],
  omniTiming: ['stats.py', 'vllm_omni/metrics/stats.py', 910],
  engineStats: ['loggers.py', 'v1/metrics/loggers.py', 127],
  apiVersion: ['api_server.py', 'entrypoints/openai/api_server.py', 1805],
  apiArgs: ['utils.py', 'entrypoints/utils.py', 326],
  apiStarting: ['api_server.py', 'entrypoints/openai/api_server.py', 1869],
  launcherRoutes: ['launcher.py', 'entrypoints/launcher.py', 37],
  launcherRoute: ['launcher.py', 'entrypoints/launcher.py', 45],
  omniInit: ['omni.py', 'vllm_omni/entrypoints/omni.py', 412],
  omniReady: ['omni.py', 'vllm_omni/entrypoints/omni.py', 463],
  stageInit: ['omni_stage.py', 'vllm_omni/entrypoints/omni_stage.py', 301],
  deploy: ['stage_config.py', 'vllm_omni/config/stage_config.py', 588],
  firstAudio: ['orchestrator.py', 'vllm_omni/engine/orchestrator.py', 214],
  jit: ['core.py', 'flashinfer/jit/core.py', 111],
  chatTemplate: ['serving_chat.py', 'entrypoints/openai/serving_chat.py', 134],
} as const satisfies Record<string, readonly [string, string, number]>;
export type Source = keyof typeof SOURCES;

export interface LogStyle {
  /** `APIServer pid=N`, `API`, or null. */
  readonly process: string | null;
  readonly ansi: boolean;
  /** VLLM_LOGGING_LEVEL=DEBUG: DEBUG records are printed and file paths are relative. */
  readonly debug: boolean;
  readonly clock: LogClock;
}

export class LogWriter {
  constructor(
    private readonly style: LogStyle,
    private readonly build: StatsBuild,
  ) {}

  private prefix(level: Level, source: Source, at: Micros): string {
    const [short, long, line] = SOURCES[source];
    return logPrefix({
      process: this.style.process,
      level,
      timestamp: this.style.clock.stamp(at),
      file: this.style.debug ? long : short,
      fileLine: line,
      ansi: this.style.ansi,
    });
  }

  /** One ordinary log line. DEBUG lines are dropped unless in debug mode. */
  line(level: Level, source: Source, message: string, at: Micros): string {
    if (level === 'DEBUG' && !this.style.debug) return '';
    return renderLogRecord(this.prefix(level, source, at), [message]);
  }

  /** A uvicorn line (`INFO:     ...`), which bypasses vLLM's formatter. */
  uvicorn(message: string): string {
    const proc =
      this.style.process === null
        ? ''
        : this.style.ansi
          ? `\x1b[1;36m(${this.style.process})\x1b[0;0m `
          : `(${this.style.process}) `;
    const level = this.style.ansi ? '\x1b[32mINFO\x1b[0m' : 'INFO';
    return `${proc}${level}:     ${message}\n`;
  }

  /** Every record one finished request logs, as one string so it is written whole. */
  requestRecords(req: RequestRun, batchIds: readonly number[]): string {
    const at = req.statsLoggedTs;
    const timing = renderLogRecord(this.prefix('INFO', 'omniTiming', at), [omniTimingMessage(req)]);
    if (!this.style.debug) return timing;
    const identity = { request_id: req.requestId };
    let out = renderTableRecord(
      this.prefix('DEBUG', 'statsOverall', at),
      renderFieldValueTable('Overall Summary', overallFields(req)),
    );
    out += renderTableRecord(
      this.prefix('DEBUG', 'statsE2E', at),
      renderFieldValueTable(recordTitle('RequestE2EStats', identity), e2eFields(req)),
    );
    out += timing;
    out += renderTableRecord(
      this.prefix('DEBUG', 'statsStage', at),
      renderColumnsTable(recordTitle('StageRequestStats', identity), stageColumns(req, batchIds, this.build)),
    );
    if (req.transfers.some((t) => t.sizeBytes > 0 || t.txUs > 0 || t.rxDecodeUs > 0 || t.inFlightUs > 0)) {
      out += renderTableRecord(
        this.prefix('DEBUG', 'statsTransfer', at),
        renderColumnsTable(recordTitle('TransferEdgeStats', identity), transferColumns(req)),
      );
    }
    return out;
  }
}
