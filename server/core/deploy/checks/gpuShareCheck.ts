// Stages that share a GPU and together ask for more than all of its memory: each stage's
// engine reserves its `gpu_memory_utilization` of the whole device at start-up, so the
// stage that starts last finds less free memory than it asks for and fails to start.
// Judged on the effective config for the default platform; a stage without `devices` or
// without an explicit fraction is left out (its device or share is not known here).
import { andList } from '../../andList';
import { isScalar, type ConfigEntry, type ConfigMap } from '../configTree';
import { describeLocation } from '../sourceRange';
import { stageSetting, stageViews } from '../stageViews';
import { diagnostic, type DeployDiagnostic } from './deployDiagnostic';

interface StageShare {
  readonly stageId: number;
  readonly fraction: number;
  readonly fractionEntry: ConfigEntry;
  readonly devicesEntry: ConfigEntry;
}

/** Device ids of a `devices` value ("0", "0,1", 2); empty when it does not read as ids. */
function deviceIdsOf(entry: ConfigEntry): string[] {
  if (!isScalar(entry.value)) return [];
  const text = String(entry.value.value ?? '');
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return ids.length <= MAX_DEVICES && ids.every((id) => /^\d+$/.test(id)) ? [...new Set(ids)] : [];
}

/** More device ids than any machine has: not read as a device list (bounds the work on a hostile file). */
const MAX_DEVICES = 1024;

export function gpuShareDiagnostics(file: string, effective: ConfigMap): DeployDiagnostic[] {
  const byDevice = new Map<string, StageShare[]>();
  for (const view of stageViews(effective)) {
    const fractionEntry = stageSetting(effective, view, 'gpu_memory_utilization');
    const devicesEntry = stageSetting(effective, view, 'devices');
    if (fractionEntry === undefined || devicesEntry === undefined || !isScalar(fractionEntry.value)) continue;
    const fraction = fractionEntry.value.value;
    // Out-of-range fractions have their own diagnostic.
    if (typeof fraction !== 'number' || !(fraction > 0 && fraction <= 1)) continue;
    for (const device of deviceIdsOf(devicesEntry)) {
      const shares = byDevice.get(device) ?? [];
      shares.push({ stageId: view.id, fraction, fractionEntry, devicesEntry });
      byDevice.set(device, shares);
    }
  }
  const found: DeployDiagnostic[] = [];
  // Each stage is told once, about the first GPU it oversubscribes (two stages may share many).
  const told = new Set<number>();
  for (const [device, shares] of byDevice) {
    if (shares.length < 2) continue;
    // Thousandths: 0.7 + 0.2 + 0.1 is 1 here, not 1.0000000000000002.
    const thousandths = shares.reduce((sum, s) => sum + Math.round(s.fraction * 1000), 0);
    if (thousandths <= 1000) continue;
    const message =
      `Stages ${inWords(shares.map((s) => s.stageId))} share GPU ${device} and together ask for ` +
      `${sumWords(shares.map((s) => s.fraction))} = ${thousandths / 1000} of its memory: each reserves its ` +
      '`gpu_memory_utilization` of the whole device, so the stage that starts last finds too little free and ' +
      'fails to start. Lower them to add up to at most 1.';
    for (const share of shares) {
      if (told.has(share.stageId)) continue;
      told.add(share.stageId);
      // Said where this file sets the fraction, else where it puts the stage on the device.
      const location =
        share.fractionEntry.value.location.file === file
          ? share.fractionEntry.value.location
          : share.devicesEntry.value.location.file === file
            ? share.devicesEntry.value.location
            : null;
      if (location === null) continue;
      const related = shares
        .filter((other) => other !== share)
        .slice(0, LISTED)
        .map((other) => ({
          location: other.fractionEntry.value.location,
          message: `stage ${other.stageId}: gpu_memory_utilization ${other.fraction} (${describeLocation(other.fractionEntry.value.location, file)})`,
        }));
      found.push(diagnostic('gpu-memory-oversubscribed', message, location, { related }));
    }
  }
  return found;
}

/** Stages named (and fractions summed term by term) in one message: a config may put hundreds on one GPU. */
const LISTED = 4;

/** "0 and 1", "0, 1 and 2", "0, 1, 2, 3 and 307 more". */
function inWords(ids: readonly number[]): string {
  if (ids.length > LISTED) return `${ids.slice(0, LISTED).join(', ')} and ${ids.length - LISTED} more`;
  return andList(ids);
}

/** "0.6 + 0.5", "0.3 + 0.3 + 0.3 + 0.3 + … (311 stages)". */
function sumWords(fractions: readonly number[]): string {
  const terms = fractions.slice(0, LISTED).join(' + ');
  return fractions.length > LISTED ? `${terms} + … (${fractions.length} stages)` : terms;
}
