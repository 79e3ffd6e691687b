// What Stage Lens asks before a launch in an untrusted workspace. Any launch there needs
// consent: the default command still runs `vllm` with this workspace's deploy YAML, whose
// engine arguments (trust_remote_code) can run code from the model's repository. The
// workspace's own server command and environment run code too (LD_PRELOAD, PYTHONPATH):
// VS Code leaves them out in Restricted Mode (restrictedConfigurations), and they are used
// only when the user picks them here, having seen them. Pure: the editor shows the result.

/** A restricted setting this workspace sets, as it will be shown. */
export interface WorkspaceOverride {
  readonly key: string;
  readonly value: unknown;
}

export interface ConsentQuestion {
  readonly message: string;
  readonly detail: string;
  /** The first launches with the user's own settings; `withWorkspace` (when present) applies the workspace's values. */
  readonly launch: string;
  readonly withWorkspace: string | null;
}

const MAX_VALUE_CHARS = 400;

function showValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 3)}...` : text;
}

/**
 * The question for an untrusted workspace, or null when the workspace is trusted.
 * `commandLine` is what runs with the user's own settings (environment added, then argv).
 */
export function launchConsentQuestion(input: {
  readonly trusted: boolean;
  readonly commandLine: string;
  readonly deployConfig: string | null;
  readonly overrides: readonly WorkspaceOverride[];
}): ConsentQuestion | null {
  if (input.trusted) return null;
  const lines = [`It runs, on this machine:`, input.commandLine];
  if (input.deployConfig !== null) {
    lines.push(
      '',
      `Its deploy config ${input.deployConfig} comes from this workspace; the engine arguments it sets (such as trust_remote_code) can run code from the model's repository.`,
    );
  }
  if (input.overrides.length > 0) {
    lines.push(
      '',
      "This workspace's settings would also change what runs (they can run code, e.g. LD_PRELOAD or PYTHONPATH):",
    );
    for (const o of input.overrides) lines.push(`  ${o.key}: ${showValue(o.value)}`);
    lines.push("The command above does not use them; choose 'Launch With Workspace Settings' to use them.");
  }
  return {
    message: 'This workspace is not trusted. Launch the server?',
    detail: lines.join('\n'),
    launch: 'Launch',
    withWorkspace: input.overrides.length > 0 ? 'Launch With Workspace Settings' : null,
  };
}

/** The server environment with the workspace's values applied over the user's (objects merge, as VS Code merges them). */
export function withWorkspaceEnv(
  userEnv: Readonly<Record<string, string>>,
  workspaceEnv: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...userEnv, ...workspaceEnv };
}

/** The question before a Prometheus URL from an untrusted workspace's settings is queried. */
export function prometheusUrlQuestion(input: {
  readonly trusted: boolean;
  readonly workspaceUrl: string | null;
  readonly ownUrl: string;
}): ConsentQuestion | null {
  if (input.trusted || input.workspaceUrl === null || input.workspaceUrl === input.ownUrl) return null;
  return {
    message: 'This workspace is not trusted. Query the Prometheus server its settings name?',
    detail: `This workspace sets stageLens.prometheus.url to ${showValue(input.workspaceUrl)}. Stage Lens would send it queries naming this deployment. Your own setting is ${showValue(input.ownUrl)}.`,
    launch: 'Use My Setting',
    withWorkspace: "Use the Workspace's URL",
  };
}
