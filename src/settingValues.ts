// Every stageLens.* setting: its default (read from the manifest, package.json, the one
// place defaults are written) and the check that turns a raw value into what the code uses.
// A value that becomes a URL, a path, an argument or an environment variable is checked
// here; a bad one is a SettingError naming the setting and what is wrong, never a silent
// fallback (a port of "1@evil.example" would otherwise make the metrics URL's host
// evil.example). Pure: no vscode import, so the checks are unit-tested with real values.
import manifest from '../package.json';

const PROPERTIES = manifest.contributes.configuration.properties;

/** The manifest's default of a setting, by its full key. */
function manifestDefault<K extends keyof typeof PROPERTIES>(key: K): (typeof PROPERTIES)[K]['default'] {
  return PROPERTIES[key].default;
}

export const SETTING_DEFAULTS = {
  serverCommand: manifestDefault('stageLens.serverCommand'),
  serverEnv: manifestDefault('stageLens.serverEnv'),
  model: manifestDefault('stageLens.model'),
  port: manifestDefault('stageLens.port'),
  scrapeIntervalMs: manifestDefault('stageLens.scrapeIntervalMs'),
  retentionMaxSessions: manifestDefault('stageLens.retention.maxSessions'),
  demoScenario: manifestDefault('stageLens.demo.scenario'),
  demoRps: manifestDefault('stageLens.demo.rps'),
  prometheusUrl: manifestDefault('stageLens.prometheus.url'),
  prometheusDeploymentLabel: manifestDefault('stageLens.prometheus.deploymentLabel'),
  prometheusDeploymentValue: manifestDefault('stageLens.prometheus.deploymentValue'),
  prometheusWindow: manifestDefault('stageLens.prometheus.window'),
  prometheusPollIntervalMs: manifestDefault('stageLens.prometheus.pollIntervalMs'),
} as const;

/** Settings whose workspace value runs code or reaches the network: asked about in an untrusted workspace. */
export const RESTRICTED_SETTINGS = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;

export class SettingError extends Error {
  constructor(
    /** Full key, `stageLens.port`. */
    readonly key: string,
    problem: string,
  ) {
    super(`setting ${key} ${problem}`);
  }
}

const shown = (raw: unknown): string => {
  const text = JSON.stringify(raw);
  return text === undefined ? String(raw) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

function integerIn(key: string, raw: unknown, min: number, max: number): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    throw new SettingError(key, `must be an integer from ${min} to ${max}, not ${shown(raw)}`);
  }
  return raw;
}

function numberAtLeast(key: string, raw: unknown, min: number): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < min)
    throw new SettingError(key, `must be a number of at least ${min}, not ${shown(raw)}`);
  return raw;
}

/** An argument or a path: a string without NUL (which no argv or path can hold). */
function plainString(key: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new SettingError(key, `must be a string, not ${shown(raw)}`);
  if (raw.includes('\0')) throw new SettingError(key, 'must not contain a NUL character');
  return raw;
}

/** The port of the served API and its /metrics: an integer 1-65535, never text that could reshape a URL. */
export function checkPort(raw: unknown): number {
  return integerIn('stageLens.port', raw, 1, 65535);
}

/** The model goes into the argument vector: it must not read as an option (`--trust-remote-code`). */
export function checkModel(raw: unknown, key = 'stageLens.model'): string {
  const model = plainString(key, raw).trim();
  if (model === '') throw new SettingError(key, 'must not be empty');
  if (model.startsWith('-'))
    throw new SettingError(key, `must be a model name or path, not an option (${shown(model)})`);
  if (/\s/.test(model))
    throw new SettingError(key, `must be one model name or path without spaces, not ${shown(model)}`);
  return model;
}

/** The server command: an argument vector template (each element one argument) and where it came from. */
export interface ServerCommand {
  readonly words: readonly string[];
  /** `argv`: given as an array, each element passed verbatim; `string`: split on whitespace. */
  readonly form: 'argv' | 'string';
}

export function checkServerCommand(raw: unknown): ServerCommand {
  const key = 'stageLens.serverCommand';
  if (typeof raw === 'string') {
    const words = plainString(key, raw)
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0) throw new SettingError(key, 'is empty: give the program to run and its arguments');
    return { words, form: 'string' };
  }
  if (!Array.isArray(raw))
    throw new SettingError(
      key,
      `must be an array of arguments (["vllm", "serve", ...]) or a command string, not ${shown(raw)}`,
    );
  const words = raw.map((w, i) => plainString(`${key}[${i}]`, w));
  if (words.length === 0 || (words[0] ?? '').trim() === '')
    throw new SettingError(key, 'is empty: its first element is the program to run');
  return { words, form: 'argv' };
}

/** Variables the launched server gets on top of the inherited environment. `null` drops a default. */
export function checkServerEnv(raw: unknown): Record<string, string> {
  const key = 'stageLens.serverEnv';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SettingError(key, `must be an object of NAME: "value" pairs, not ${shown(raw)}`);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '' || name.includes('=') || name.includes('\0'))
      throw new SettingError(key, `has an invalid variable name ${shown(name)}`);
    if (value === null) continue;
    if (typeof value !== 'string')
      throw new SettingError(key, `value of ${name} must be a string (or null to add nothing), not ${shown(value)}`);
    if (value.includes('\0')) throw new SettingError(key, `value of ${name} must not contain a NUL character`);
    env[name] = value;
  }
  return env;
}

/** An http(s) URL with a host; returned as typed (the server reads it again). */
export function checkHttpUrl(key: string, raw: unknown): string {
  const text = plainString(key, raw).trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new SettingError(key, `must be an http:// or https:// URL, not ${shown(text)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new SettingError(key, `must be an http:// or https:// URL, not ${shown(text)}`);
  if (url.username !== '' || url.password !== '')
    throw new SettingError(
      key,
      'must not carry a user name or password (they would be sent with every query and shown in titles)',
    );
  return text;
}

export function checkScrapeInterval(raw: unknown): number {
  return numberAtLeast('stageLens.scrapeIntervalMs', raw, 250);
}

export function checkPollInterval(raw: unknown): number {
  return numberAtLeast('stageLens.prometheus.pollIntervalMs', raw, 250);
}

export function checkMaxSessions(raw: unknown): number {
  return integerIn('stageLens.retention.maxSessions', raw, 1, 100_000);
}

export function checkDemoRps(raw: unknown): number {
  const rps = numberAtLeast('stageLens.demo.rps', raw, 0);
  if (rps === 0 || rps > 1000)
    throw new SettingError('stageLens.demo.rps', `must be a number above 0 and at most 1000, not ${shown(raw)}`);
  return rps;
}

const SCENARIOS: readonly string[] = PROPERTIES['stageLens.demo.scenario'].enum;

export function checkDemoScenario(raw: unknown): string {
  if (typeof raw !== 'string' || !SCENARIOS.includes(raw))
    throw new SettingError('stageLens.demo.scenario', `must be one of ${SCENARIOS.join(', ')}, not ${shown(raw)}`);
  return raw;
}

/** A plain string setting (label, window...) that the language server checks in full; trimmed, default when empty. */
export function checkText(key: string, raw: unknown, fallback: string): string {
  const text = plainString(key, raw).trim();
  return text === '' ? fallback : text;
}

/** Values substituted into the server command. */
export interface LaunchValues {
  readonly model: string;
  readonly deployConfig: string;
  readonly port: number;
}

const PLACEHOLDER = /\$\{(model|deployConfig|port)\}/g;

/** Whether the command asks for a value (e.g. `${model}`: only then is the user asked for a model). */
export function commandUses(command: ServerCommand, name: keyof LaunchValues): boolean {
  return command.words.some((w) => w.includes(`\${${name}}`));
}

/**
 * The argument vector: each word of the template with `${model}`, `${deployConfig}` and
 * `${port}` substituted. Words are split (string form) before substitution, so a value with
 * spaces (a path) stays one argument; nothing ever goes through a shell.
 */
export function expandServerCommand(command: ServerCommand, values: LaunchValues): string[] {
  return command.words.map((w) => w.replace(PLACEHOLDER, (_, key: keyof LaunchValues) => String(values[key])));
}
