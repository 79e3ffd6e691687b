// Which deploy config a report used and where its stage roles came from, in the JSON of
// analyze and explain alike: a script reads them as fields, not from the sentences on stderr.

/** Where the deploy config came from: `--deploy-config`, the saved session's recorded one, or none. */
export type DeployConfigFrom = 'flag' | 'session' | 'none';

export interface DeployConfigJson {
  /** The path as given to `--deploy-config`, or as the session recorded it; null without one. */
  readonly path: string | null;
  readonly from: DeployConfigFrom;
  /** Whether its settings are evidence in the report (findings cite them): false without one, or when `problem` says why not. */
  readonly cited: boolean;
  /** Why a config given or recorded is not cited (its stages are not the log's; the session's file is gone or changed); null otherwise. */
  readonly problem: string | null;
}

export function deployConfigJson(
  path: string | null,
  from: DeployConfigFrom,
  problem: string | null,
): DeployConfigJson {
  if (path === null || from === 'none') return { path: null, from: 'none', cited: false, problem: null };
  return { path, from, cited: problem === null, problem };
}
