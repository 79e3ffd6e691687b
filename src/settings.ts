// The one place the extension reads stageLens.* settings: each group is read, checked by
// settingValues.ts (defaults from the manifest) and returned typed. A bad value is a
// SettingError that the command shows with an "Open Settings" button; nothing falls back
// silently to a default the user did not choose.
import * as vscode from 'vscode';
import { showError } from './notify';
import type { RetentionParams } from '../server/protocol';
import {
  checkDemoRps,
  checkDemoScenario,
  checkHttpUrl,
  checkMaxSessions,
  checkModel,
  checkPollInterval,
  checkPort,
  checkScrapeInterval,
  checkServerCommand,
  checkServerEnv,
  checkText,
  SETTING_DEFAULTS,
  SettingError,
  type ServerCommand,
} from './settingValues';

export { SettingError } from './settingValues';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('stageLens');
}

/** The effective value (VS Code applies scopes and, in Restricted Mode, leaves restricted workspace values out). */
function raw(key: string, fallback: unknown): unknown {
  return config().get<unknown>(key, fallback);
}

export interface LaunchSettings {
  readonly command: ServerCommand;
  readonly env: Readonly<Record<string, string>>;
  /** The model offered in the input box; not checked until the user confirms it. */
  readonly model: string;
  readonly port: number;
}

export function launchSettings(): LaunchSettings {
  return {
    command: checkServerCommand(raw('serverCommand', SETTING_DEFAULTS.serverCommand)),
    env: checkServerEnv(raw('serverEnv', SETTING_DEFAULTS.serverEnv)),
    model: String(raw('model', SETTING_DEFAULTS.model)),
    port: checkPort(raw('port', SETTING_DEFAULTS.port)),
  };
}

export function portSetting(): number {
  return checkPort(raw('port', SETTING_DEFAULTS.port));
}

export function scrapeIntervalSetting(): number {
  return checkScrapeInterval(raw('scrapeIntervalMs', SETTING_DEFAULTS.scrapeIntervalMs));
}

export { checkModel };

export interface DemoSettings {
  readonly scenario: string;
  readonly rps: number;
}

export function demoSettings(): DemoSettings {
  return {
    scenario: checkDemoScenario(raw('demo.scenario', SETTING_DEFAULTS.demoScenario)),
    rps: checkDemoRps(raw('demo.rps', SETTING_DEFAULTS.demoRps)),
  };
}

export interface PrometheusSettings {
  readonly url: string;
  readonly deploymentLabel: string;
  readonly deploymentValue: string;
  readonly window: string;
  readonly pollIntervalMs: number;
}

export function prometheusSettings(): PrometheusSettings {
  return {
    url: checkHttpUrl('stageLens.prometheus.url', raw('prometheus.url', SETTING_DEFAULTS.prometheusUrl)),
    deploymentLabel: checkText(
      'stageLens.prometheus.deploymentLabel',
      raw('prometheus.deploymentLabel', SETTING_DEFAULTS.prometheusDeploymentLabel),
      SETTING_DEFAULTS.prometheusDeploymentLabel,
    ),
    deploymentValue: checkText(
      'stageLens.prometheus.deploymentValue',
      raw('prometheus.deploymentValue', SETTING_DEFAULTS.prometheusDeploymentValue),
      '',
    ),
    window: checkText(
      'stageLens.prometheus.window',
      raw('prometheus.window', SETTING_DEFAULTS.prometheusWindow),
      SETTING_DEFAULTS.prometheusWindow,
    ),
    pollIntervalMs: checkPollInterval(raw('prometheus.pollIntervalMs', SETTING_DEFAULTS.prometheusPollIntervalMs)),
  };
}

/**
 * stageLens.retention.* as the language server expects it. Read when the server starts, so a
 * bad value must not stop it: the default is used and `onProblem` says why.
 */
export function retentionSettings(onProblem: (message: string) => void): RetentionParams {
  try {
    return { maxSessions: checkMaxSessions(raw('retention.maxSessions', SETTING_DEFAULTS.retentionMaxSessions)) };
  } catch (err) {
    onProblem(
      `${err instanceof Error ? err.message : String(err)}; keeping ${SETTING_DEFAULTS.retentionMaxSessions} sessions`,
    );
    return { maxSessions: SETTING_DEFAULTS.retentionMaxSessions };
  }
}

/** A setting's value in this workspace's settings (folder before workspace), or undefined. */
export function workspaceValue(key: string): unknown {
  const inspected = config().inspect<unknown>(key);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
}

/** Shows a SettingError with a button that opens the setting; other errors as they are. */
export async function showSettingError(err: SettingError): Promise<void> {
  const choice = await showError(`Stage Lens: ${err.message}`, 'Open Settings');
  if (choice === 'Open Settings')
    await vscode.commands.executeCommand('workbench.action.openSettings', err.key.replace(/\[\d+\]$/, ''));
}

export function isSettingError(err: unknown): err is SettingError {
  return err instanceof SettingError;
}
