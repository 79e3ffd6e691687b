// The stage graph: duplicate stage ids, connectors referenced but not defined, edges and
// platform overrides that name a stage the (effective) config does not have. Judged on
// the effective config; reported only where the offending text is in the checked file.
import { entryOf, isList, isMap, isScalar, stageIdOf, valueOf, type ConfigMap, type ConfigValue } from '../configTree';
import { closestName } from '../../didYouMean';
import { describeLocation } from '../sourceRange';
import { connectorEdges, stageViews } from '../stageViews';
import { diagnostic, replaceFix, type DeployDiagnostic } from './deployDiagnostic';

export function stageGraphDiagnostics(file: string, own: ConfigValue | null, effective: ConfigMap): DeployDiagnostic[] {
  const found: DeployDiagnostic[] = [];
  if (isMap(own)) {
    duplicateIds(file, valueOf(own, 'stages'), 'stages', found);
    const platforms = valueOf(own, 'platforms');
    if (isMap(platforms)) {
      for (const [name, platform] of platforms.entries)
        duplicateIds(file, valueOf(platform.value, 'stages'), `platforms.${name}.stages`, found);
    }
  }
  const views = stageViews(effective);
  const stageIds = new Set(views.map((view) => view.id));
  const connectors = valueOf(effective, 'connectors');
  const connectorNames = isMap(connectors) ? [...connectors.entries.keys()] : [];

  for (const edge of connectorEdges(views)) {
    if (edge.entry.keyLocation.file !== file) continue;
    const other = edge.entry.key.startsWith('to_') ? edge.to : edge.from;
    if (!stageIds.has(other)) {
      found.push(
        diagnostic(
          'edge-unknown-stage',
          `\`${edge.entry.key}\` names stage ${other}, which this config does not define (stages: ${[...stageIds].sort((a, b) => a - b).join(', ') || 'none'}).`,
          edge.entry.keyLocation,
        ),
      );
    }
    if (edge.connector !== null && !connectorNames.includes(edge.connector) && isScalar(edge.entry.value)) {
      const suggestion = closestName(edge.connector, connectorNames);
      const defined =
        connectorNames.length > 0
          ? `defined: ${connectorNames.map((n) => `\`${n}\``).join(', ')}`
          : 'no connectors are defined';
      found.push(
        diagnostic(
          'connector-undefined',
          `Connector \`${edge.connector}\` is not defined under \`connectors\` (${defined}).${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
          edge.entry.value.location,
          {
            fixes: suggestion ? [replaceFix(`Change to \`${suggestion}\``, edge.entry.value.location, suggestion)] : [],
          },
        ),
      );
    }
  }

  const edges = valueOf(effective, 'edges');
  if (isList(edges)) {
    for (const edge of edges.items) {
      for (const side of ['from', 'to', 'from_stage', 'to_stage', 'source', 'target']) {
        const entry = entryOf(edge, side);
        if (
          !entry ||
          entry.keyLocation.file !== file ||
          !isScalar(entry.value) ||
          typeof entry.value.value !== 'number'
        )
          continue;
        if (!stageIds.has(entry.value.value)) {
          found.push(
            diagnostic(
              'edge-unknown-stage',
              `This edge names stage ${entry.value.value}, which this config does not define.`,
              entry.value.location,
            ),
          );
        }
      }
    }
  }

  const platforms = valueOf(effective, 'platforms');
  if (isMap(platforms) && stageIds.size > 0) {
    for (const [name, platform] of platforms.entries) {
      const stages = valueOf(platform.value, 'stages');
      if (!isList(stages)) continue;
      for (const stage of stages.items) {
        const id = stageIdOf(stage);
        const idEntry = entryOf(stage, 'stage_id');
        if (id === null || !idEntry || idEntry.keyLocation.file !== file || stageIds.has(id)) continue;
        found.push(
          diagnostic(
            'platform-stage-unknown',
            `The \`${name}\` override for stage ${id} is skipped: this config has no stage ${id}.`,
            idEntry.span,
          ),
        );
      }
    }
  }
  return found;
}

function duplicateIds(file: string, stages: ConfigValue | undefined, where: string, found: DeployDiagnostic[]): void {
  if (!isList(stages)) return;
  const first = new Map<number, ConfigMap>();
  for (const stage of stages.items) {
    const id = stageIdOf(stage);
    const idEntry = entryOf(stage, 'stage_id');
    if (id === null || !idEntry || !isMap(stage)) continue;
    const earlier = first.get(id);
    if (!earlier) {
      first.set(id, stage);
      continue;
    }
    const earlierEntry = entryOf(earlier, 'stage_id');
    found.push(
      diagnostic(
        'duplicate-stage-id',
        `Duplicate \`stage_id: ${id}\` in \`${where}\`: vLLM-Omni keeps only the last entry with this id, so the settings of ${earlierEntry ? describeLocation(earlierEntry.span, file) : 'the earlier one'} are dropped.`,
        idEntry.span,
        {
          related: earlierEntry ? [{ location: earlierEntry.span, message: `first \`stage_id: ${id}\`` }] : [],
        },
      ),
    );
  }
}
