// A vLLM-Omni deploy config (YAML) given as a log (picked by mistake in Import Log..., or passed
// to analyze) parses as no records: said once, from its first bytes, instead of "no stats tables
// found, run at DEBUG", which would send its reader after a logging level. Strict, so no log is
// ever taken for one: the first line that is not blank or a comment is a top-level snake_case
// YAML key, and the head holds the top-level `stages:` with a `- stage_id:` item, or a top-level
// `base_config:` (an overlay). A config whose `stages:` lies past the head is not recognised (the
// plain message stays).

/** Deploy keys are snake_case; a log's `INFO:     ...` line is not one. */
const TOP_LEVEL_KEY = /^[a-z_][a-z0-9_]*:(?:[ \t]|$)/;
const STAGES = /^stages:[ \t]*$/m;
const STAGE_ID_ITEM = /^[ \t]*- stage_id:/m;
const BASE_CONFIG = /^base_config:[ \t]*\S/m;

/** Whether the input's first bytes are a deploy config's YAML (read as Latin-1: only ASCII matters). */
export function looksLikeDeployConfig(head: Uint8Array): boolean {
  let text = '';
  for (let i = 0; i < head.length; i++) text += String.fromCharCode(head[i] as number);
  let first: string | undefined;
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed === '---') continue;
    first = line;
    break;
  }
  if (first === undefined || !TOP_LEVEL_KEY.test(first)) return false;
  return (STAGES.test(text) && STAGE_ID_ITEM.test(text)) || BASE_CONFIG.test(text);
}
