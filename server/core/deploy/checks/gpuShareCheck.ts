// Stages that share a GPU and together ask for more than all of its memory: each stage's
// engine reserves its `gpu_memory_utilization` of the whole device at start-up, so the
// stage that starts last finds less free memory than it asks for and fails to start.
// Judged on the effective config for the default platform; a stage without `devices` or
// without an explicit fraction is left out (its device or share is not known here).
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
export function deviceIdsOf(entry: ConfigEntry): string[] {
  if (!isScalar(entry.value)) return [];
  const text = String(entry.value.value ?? '');
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return ids.every((id) => /^\d+$/.test(id)) ? [...new Set(ids)] : [];
}

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
  for (const [device, shares] of byDevice) {
    if (shares.length < 2) continue;
    // Thousandths: 0.7 + 0.2 + 0.1 is 1 here, not 1.0000000000000002.
    const thousandths = shares.reduce((sum, s) => sum + Math.round(s.fraction * 1000), 0);
    if (thousandths <= 1000) continue;
    const stages = shares.map((s) => s.stageId);
    const message =
      `Stages ${inWords(stages)} share GPU ${device} and together ask for ` +
      `${shares.map((s) => s.fraction).join(' + ')} = ${thousandths / 1000} of its memory: each reserves its ` +
      '`gpu_memory_utilization` of the whole device, so the stage that starts last finds too little free and ' +
      'fails to start. Lower them to add up to at most 1.';
    for (const share of shares) {
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
        .map((other) => ({
          location: other.fractionEntry.value.location,
          message: `stage ${other.stageId}: gpu_memory_utilization ${other.fraction} (${describeLocation(other.fractionEntry.value.location, file)})`,
        }));
      found.push(diagnostic('gpu-memory-oversubscribed', message, location, { related }));
    }
  }
  return found;
}

/** "0 and 1", "0, 1 and 2". */
function inWords(ids: readonly number[]): string {
  return ids.length < 2 ? ids.join('') : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}
