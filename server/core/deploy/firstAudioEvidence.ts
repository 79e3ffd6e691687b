// What a deploy config says about the codec first-audio signature (finding
// ttft-not-recorded: a codec's vllm_ttft_ms 0 with no prefill, which a build without the stats
// fix prints under talker first audio). The config either turns talker_first_audio on with
// this stage as its codec (it agrees), or keeps it from taking effect, or does not turn it on
// (then the session probably did not run this config). The finding comes from the numbers;
// this only adds evidence to its message.
import * as path from 'node:path';
import { entryOf, isMap, valueOf, type ConfigEntry, type ConfigMap } from './configTree';
import { idList, where } from './evidenceText';
import { readsAsTrue } from './stageViews';
import { talkerFirstAudioReports } from './talkerFirstAudio';

/** Every connector's `extra.talker_first_audio` entry, on or off. */
function flagEntries(root: ConfigMap): ConfigEntry[] {
  const connectors = valueOf(root, 'connectors');
  if (!isMap(connectors)) return [];
  const flags: ConfigEntry[] = [];
  for (const connector of connectors.entries.values()) {
    const flag = entryOf(valueOf(connector.value, 'extra'), 'talker_first_audio');
    if (flag !== undefined) flags.push(flag);
  }
  return flags;
}

/** One sentence: what the effective config `root` (of the file `configPath`) says about talker first audio for the stage. */
export function firstAudioEvidence(root: ConfigMap, configPath: string, stageId: number): string {
  const name = path.basename(configPath);
  const check = 'check that the session ran this config.';
  const reports = talkerFirstAudioReports(root);
  if (reports.length === 0) {
    const off = flagEntries(root).find((flag) => !readsAsTrue(flag));
    return off !== undefined
      ? `The deploy config ${name} sets talker_first_audio off (${where(off)}), while this signature comes with talker first audio: ${check}`
      : `The deploy config ${name} does not set talker_first_audio (no connector's extra turns it on), while this signature comes with talker first audio: ${check}`;
  }
  const report = reports.find((r) => r.codecs.includes(stageId)) ?? reports.find((r) => r.codecs.length === 0);
  if (report === undefined) {
    const codecs = [...new Set(reports.flatMap((r) => r.codecs))];
    return `The deploy config ${name} turns talker_first_audio on (${where(reports[0]?.flag as ConfigEntry)}) for codec stage${codecs.length === 1 ? '' : 's'} ${idList(codecs)}, not stage ${stageId}: ${check}`;
  }
  const on = `talker_first_audio on (${where(report.flag)}, connector ${report.connector})`;
  const stopped = report.checks.find((c) => c.ok === false);
  if (stopped !== undefined)
    return `The deploy config ${name} turns ${on}, but ${stopped.actual}${stopped.decidedBy === undefined ? '' : ` (${where(stopped.decidedBy)})`} keeps it from taking effect (it needs ${stopped.requirement.replace(/`/g, '')}): ${check}`;
  return report.codecs.includes(stageId)
    ? `The deploy config ${name} agrees: it turns ${on} with stage ${stageId} as its codec.`
    : `The deploy config ${name} agrees: it turns ${on}.`;
}
