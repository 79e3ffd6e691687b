// Findings of a session with what its matched deploy config says about them (read from
// disk, base_config overlays resolved). Only the one-output finding uses a config today;
// a config that cannot be read adds nothing (the finding stands on the numbers alone).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Finding } from '../core/analysis/types';
import { DeployFileCache } from '../core/deploy/fileCache';
import { resolveEffectiveConfig } from '../core/deploy/effectiveConfig';
import { withOneOutputEvidence } from '../core/deploy/oneOutputEvidence';
import { isMap } from '../core/deploy/configTree';

function readText(filePath: string): string | undefined {
  try {
    return fs.readFileSync(filePath, 'utf8');
  } catch {
    return undefined;
  }
}

/** One cache for the process: a config is parsed again only when its text changed. */
const files = new DeployFileCache(readText);

export function withDeployEvidence(findings: readonly Finding[], deployConfig: string | null): readonly Finding[] {
  if (deployConfig === null || !findings.some((f) => f.code === 'prefill-covers-decode')) return findings;
  const configPath = path.resolve(deployConfig);
  const file = files.load(configPath);
  if (file === undefined || !isMap(file.root)) return findings;
  const effective = resolveEffectiveConfig(file, (base) => files.load(base));
  return withOneOutputEvidence(findings, effective.root, configPath);
}
