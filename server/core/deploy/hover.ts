// Hover text (markdown) for the key at a position: what it does, its default, what it
// means for the metrics, and for a few keys what the effective config makes of it: the
// overlay chain on `base_config`, a stage's effective values and their files on
// `stage_id`, the prerequisite checklist on `talker_first_audio`.
import * as path from 'node:path';
import type { DeployAnalysis } from './analysis';
import { renderValue, stageIdOf, type ConfigEntry, type ConfigMap } from './configTree';
import { keyAtOffset, type KeyHit } from './keyAtOffset';
import { misplacedKeyHome, specAtPath, topLevelSchema, type KeySpec, type MapSchema } from './schema';
import { describeLocation, type SourceRange } from './sourceRange';
import { stageViews } from './stageViews';
import { talkerFirstAudioReports } from './talkerFirstAudio';
import { withVisibleBidi } from '../visibleBidi';
import { inertMarkdown, markdownCode } from '../markdownText';

export interface DeployHover {
  readonly markdown: string;
  readonly range: SourceRange;
}

/** Most effective values listed in a `stage_id` hover; a stage rarely has more. */
const MAX_STAGE_VALUES = 40;

export function deployHover(analysis: DeployAnalysis, offset: number): DeployHover | undefined {
  if (!analysis.isDeployConfig || onNoKey(analysis.file.text, offset)) return undefined;
  const hit = keyAtOffset(analysis.file.root, analysis.file.path, offset);
  if (!hit) return undefined;
  const found = specAtPath(hit.path);
  const sections = found ? describeSpec(hit.entry.key, found.spec) : [unknownKeyText(hit)];
  sections.push(...effectiveSections(analysis, hit));
  return { markdown: sections.join('\n\n'), range: hit.entry.keyLocation.range };
}

/**
 * A blank line, or a comment: no key is there, though the map around it spans it (a hover
 * there would show the enclosing key's documentation).
 */
function onNoKey(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  const line = text.slice(start, newline < 0 ? text.length : newline).replace(/\r$/, '');
  if (line.trim() === '') return true;
  const comment = commentStart(line);
  return comment >= 0 && offset - start >= comment;
}

/** Where a YAML comment starts on a line: a `#` at its start or after a space, outside quotes; -1 for none. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) return i;
  }
  return -1;
}

function describeSpec(name: string, spec: KeySpec): string[] {
  const kinds = spec.values ? spec.values.map((v) => `\`${v}\``).join(' | ') : spec.kinds.join(' | ');
  return [
    `**\`${name}\`** · ${kinds} · default: ${spec.defaultText}`,
    spec.description,
    `**Metrics:** ${spec.metrics}`,
  ];
}

/** The schema of the map holding the key at `path` (its last key), when the map is known. */
function parentSchema(path: readonly string[]): MapSchema | undefined {
  if (path.length === 1) return topLevelSchema;
  const parent = path[path.length - 2] === '[]' ? path.slice(0, -2) : path.slice(0, -1);
  const found = specAtPath(parent);
  return path[path.length - 2] === '[]' ? found?.spec.items : found?.spec.children;
}

function unknownKeyText(hit: KeyHit): string {
  const schema = parentSchema(hit.path);
  const home = schema === undefined ? undefined : misplacedKeyHome(hit.entry.key, schema);
  if (home !== undefined) {
    const spec = specAtPath(['connectors', '<name>', 'extra', hit.entry.key])?.spec;
    return [
      `**${markdownCode(withVisibleBidi(hit.entry.key))}** is a connector \`extra\` key: it belongs under \`${home}\`. Where it is now, vLLM-Omni does not read it as this setting (under a stage it is passed to vLLM as an engine argument).`,
      ...(spec === undefined ? [] : describeSpec(hit.entry.key, spec)),
    ].join('\n\n');
  }
  return `**${markdownCode(withVisibleBidi(hit.entry.key))}** is not a deploy key Stage Lens knows. Stage-level keys and connector \`extra\` keys are passed on as they are (unknown stage keys become vLLM engine arguments).`;
}

function effectiveSections(analysis: DeployAnalysis, hit: KeyHit): string[] {
  const [first] = hit.path;
  const last = hit.path[hit.path.length - 1];
  const file = analysis.file.path;
  if (hit.path.length === 1 && first === 'base_config') return [chainText(analysis)];
  if (last === 'stage_id' && hit.path.length === 3 && first === 'stages') {
    const id = stageIdOf(hit.parent);
    return id === null ? [] : [stageText(analysis.effective.root, id, file)];
  }
  if (last === 'talker_first_audio' && first === 'connectors')
    return [talkerFirstAudioText(analysis.effective.root, hit.path[1], file)];
  return [];
}

function chainText(analysis: DeployAnalysis): string {
  const names = analysis.effective.chain.map((file, i) =>
    i === 0 ? 'this file' : markdownCode(withVisibleBidi(path.basename(file.path))),
  );
  const problems = analysis.effective.problems.map((problem) => `⚠ ${inertMarkdown(problem.message)}`);
  return [`**Overlay chain:** ${names.join(' → ')}`, ...problems].join('\n\n');
}

function stageText(root: ConfigMap, id: number, file: string): string {
  const view = stageViews(root).find((candidate) => candidate.id === id);
  if (!view) return '';
  const lines = [...view.stage.entries.values()]
    .filter((entry) => entry.key !== 'stage_id')
    .slice(0, MAX_STAGE_VALUES)
    .map(
      (entry) =>
        `- ${markdownCode(withVisibleBidi(`${entry.key}: ${renderValue(entry.value, 50)}`))} — ${inertMarkdown(origin(entry, file))}`,
    );
  return [`**Effective stage ${id}** (after overlays, CUDA):`, ...lines].join('\n');
}

function origin(entry: ConfigEntry, file: string): string {
  const where = describeLocation(entry.keyLocation, file);
  return entry.replaced ? `${where} (overrides ${describeLocation(entry.replaced.keyLocation, file)})` : where;
}

function talkerFirstAudioText(root: ConfigMap, connector: string, file: string): string {
  const report = talkerFirstAudioReports(root).find((candidate) => candidate.connector === connector);
  if (!report) return '**Effective:** talker first audio is off for this connector.';
  const roles =
    report.talkers.length > 0
      ? `talker stage ${report.talkers.join(', ')} → codec stage ${report.codecs.join(', ')}`
      : 'talker not identified from the stage connectors (stage-level prerequisites not checked)';
  const lines = report.checks.map((check) => {
    const where = check.decidedBy ? ` — ${inertMarkdown(describeLocation(check.decidedBy.keyLocation, file))}` : '';
    return `- ${check.ok === null ? '?' : check.ok ? '✓' : '✗'} ${check.requirement}: ${inertMarkdown(check.actual)}${where}`;
  });
  return [`**Prerequisites on the effective config** (${roles}):`, ...lines].join('\n');
}
