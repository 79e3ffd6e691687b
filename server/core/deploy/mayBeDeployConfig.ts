// A cheap look at a YAML text before anything parses it: could it be a vLLM-Omni deploy
// config? The extension asks this of every YAML file opened, to start the language server
// only for deploy configs (and to show the deploy-config actions only on them). It must
// never say no to a text that isDeployConfig (recognise.ts) accepts: it looks for the words
// that recognition needs (`base_config`, or `stages` and `stage_id`) anywhere, in block or
// flow style, quoted or not; comments and values may make it say yes to other files, which
// costs only a language server that finds nothing to do.
const BASE_CONFIG = /\bbase_config\b/;
const STAGES = /\bstages\b/;
const STAGE_ID = /\bstage_id\b/;

export function mayBeDeployConfig(text: string): boolean {
  return BASE_CONFIG.test(text) || (STAGES.test(text) && STAGE_ID.test(text));
}
