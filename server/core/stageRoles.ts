// Stage roles are not written in a deploy YAML nor in the log; they come from the model's
// pipeline (docs/formats.md#stage-roles), recognised in the model the log says it serves, else
// in the deploy file's or the log's path; a log whose stage columns name their stages
// (`0:thinker`, the config's own `model_stage`) gives those names, over any file's name.
// The three pipelines Stage Lens targets are known; for others, stages go by id. The extension
// (a session's deploy file and source) and the CLI (the file it reads) name stages the same way.

const PIPELINES: ReadonlyArray<{ readonly match: RegExp; readonly roles: readonly string[] }> = [
  { match: /qwen3[_-]?omni/i, roles: ['thinker', 'talker', 'code2wav'] },
  // `cold-start` as a name (the demo's Qwen3-TTS scenario, a log named for it), not inside
  // another word: every simulator command line carries `--cold-start-ms`.
  { match: /qwen3[_-]?tts|(?<![\w-])cold-start(?![\w-])/i, roles: ['talker', 'code2wav'] },
  { match: /glm[_-]?image/i, roles: ['AR', 'diffusion'] },
];

/** Roles whose first output is audio (the Qwen3-TTS and Qwen3-Omni codec stages). */
const AUDIO_ROLE = /code2wav|codec|vocoder|wav|audio/i;

/** Stage id -> role ("0" -> "talker") of the pipeline `text` (paths, a command line) names; {} for another. */
export function stageRolesOf(text: string): Readonly<Record<string, string>> {
  const pipeline = PIPELINES.find((p) => p.match.test(text));
  if (pipeline === undefined) return {};
  return Object.fromEntries(pipeline.roles.map((role, i) => [String(i), role]));
}

/**
 * What names the pipeline of a file or stdin the CLI reads (analyze and explain alike): the name
 * it is read under ('stdin' for '-') and the path of its --deploy-config; the text for stageRolesOf.
 */
export function cliInputNames(sourceName: string, deployConfig: string | null): string {
  return `${sourceName} ${deployConfig ?? ''}`;
}

/** Whether two stage-role records name the same stages alike. */
export function sameStageRoles(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ids = Object.keys(a);
  return ids.length === Object.keys(b).length && ids.every((id) => Object.hasOwn(b, id) && b[id] === a[id]);
}

/**
 * A log's stage roles: those of the pipeline the model it says it serves names (its non-default
 * args at start-up), whatever the file is called; else `named()`, those its names give.
 */
export function stageRolesOfLog(
  servedModel: string | null,
  named: () => Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const served = servedModel === null ? {} : stageRolesOf(servedModel);
  return Object.keys(served).length > 0 ? served : named();
}

/**
 * The roles that name a log's stages where the model it serves names none (stageRolesOfLog): a
 * saved session's `recorded` roles (SessionInfo.stageRoles, as the editor judged them against its
 * stages) where it recorded some, else those `names` give (stageRolesOf). explain and compare of a
 * saved session take them alike.
 */
export function stageRolesOfNamesOrRecorded(
  names: string,
  recorded: Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, string>> {
  return recorded ?? stageRolesOf(names);
}

/**
 * Where the stage roles (`stageRoles`) came from: the roles a saved session recorded as the
 * editor judged them, the model the log says it serves, the names (the input's path, the deploy
 * config's, a session's source), the stage names the log printed (`0:thinker` columns), or none
 * (stages by id: no known pipeline, or its stages contradict it).
 */
export type StageRolesFrom = 'session' | 'servedModel' | 'names' | 'labels' | 'none';

/** Where `roles`, a log's stage roles (stageRolesOfLog, then fitted to its stages), came from; `fromSession`: a saved session's roles were the names'. */
export function stageRolesFromOf(
  roles: Readonly<Record<string, string>>,
  servedModel: string | null,
  fromSession: boolean,
  fromLabels = false,
): StageRolesFrom {
  if (fromSession) return 'session';
  if (Object.keys(roles).length === 0) return 'none';
  if (fromLabels) return 'labels';
  return servedModel !== null && Object.keys(stageRolesOf(servedModel)).length > 0 ? 'servedModel' : 'names';
}

/**
 * A session's stage roles: as the server judged them against its stages (SessionInfo.stageRoles),
 * else from its deploy file's name and its source (a log's name, a command).
 */
export function stageRolesOfSession(session: {
  readonly deployConfig: string | null;
  readonly description: string;
  readonly stageRoles?: Readonly<Record<string, string>>;
}): Readonly<Record<string, string>> {
  return session.stageRoles ?? stageRolesOfNames(session);
}

/** The roles a session's names give (its deploy file, its source), before any check against its stages. */
export function stageRolesOfNames(session: SessionNames): Readonly<Record<string, string>> {
  return stageRolesOf(sessionPipelineNames(session));
}

/** What a session names itself by: its deploy file and its source (a log's path, a command). */
interface SessionNames {
  readonly deployConfig: string | null;
  readonly description: string;
}

/**
 * The text that names a session's pipeline, for stageRolesOf: its deploy file and its source,
 * never its storage folder (its id) nor where a copy of it was put.
 */
export function sessionPipelineNames(session: SessionNames): string {
  return `${session.deployConfig ?? ''} ${session.description}`;
}

/** Stage id part of a stage key: `1_2` -> `1`. */
function stageIdOfKey(stageKey: string): string {
  const cut = stageKey.indexOf('_');
  return cut < 0 ? stageKey : stageKey.slice(0, cut);
}

/** The role of a stage ("code2wav"), or ''. */
export function roleOfStage(stageKey: string, roles: Readonly<Record<string, string>>): string {
  return roles[stageIdOfKey(stageKey)] ?? '';
}

/** "stage 1 · code2wav", "stage 1_2", "stage 0": a stage as the CLI and the views name it. */
export function stageLabel(stageKey: string, roles: Readonly<Record<string, string>>): string {
  const role = roleOfStage(stageKey, roles);
  return role === '' ? `stage ${stageKey}` : `stage ${stageKey} · ${role}`;
}

/** "1 · code2wav", "1_2", "0": a stage in a table's column headed "stage". */
export function stageCell(stageKey: string, roles: Readonly<Record<string, string>>): string {
  const role = roleOfStage(stageKey, roles);
  return role === '' ? stageKey : `${stageKey} · ${role}`;
}

/**
 * The sentence that says a saved session's recorded stage roles name the stages (not the names of
 * its files); `whose`: the session it names ("the baseline session" where two runs are compared).
 */
export function sessionRolesNote(roles: Readonly<Record<string, string>>, whose = 'the session'): string {
  const named = Object.keys(roles)
    .sort((a, b) => Number(a) - Number(b))
    .map((id) => stageCell(id, roles));
  return named.length === 0
    ? `stage roles: ${whose}'s: none (no known pipeline fits its stages), so stages go by id`
    : `stage roles: ${whose}'s, as the editor judged them: ${named.join(', ')}`;
}

/** Whether a stage of this role outputs audio (its first output is the first audio). */
export function outputsAudio(role: string): boolean {
  return AUDIO_ROLE.test(role);
}
