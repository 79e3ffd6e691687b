// What the explain benchmark bundles (esbuild, as dist/ does): the parser, the analysis,
// the explain index and its queries.
export { LogStreamParser } from '../../server/core/log';
export { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
export { ExplainIndex } from '../../server/core/explain/explainIndex';
export { tailAttribution } from '../../server/core/explain/tailAttribution';
export { loadAtArrival } from '../../server/core/explain/loadAtArrival';
export { overTime, OverTimeCache } from '../../server/core/explain/overTime';
export { gaugesOfEngines } from '../../server/core/explain/explainReport';
export { mainTargetOf } from '../../server/capture/explainQueries';
