// Stage Lens as a Prometheus query client: the PromQL it writes and how it reads the
// answers of /api/v1/query and /api/v1/query_range. Pure: no I/O, no editor APIs.
export * from './syntax';
export * from './stageQueries';
export * from './apiResponse';
export * from './stageFigures';
