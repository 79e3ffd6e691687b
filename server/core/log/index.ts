// The streaming log parser of vLLM-Omni server output. Pure: no vscode, no LSP.
export { LogStreamParser, parseLogText, type LogStreamParserOptions } from './logStreamParser';
export { BOOT_MARKERS, type BootMarkerName } from './bootMarkers';
export { UNTITLED_REQUEST_ID } from './tableBuilder';
export { METRICS_SUMMARY_FORMAT } from './metricsSummary';
