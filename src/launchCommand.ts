// Turns the server command template into an argument vector. The template is split on
// whitespace first and each word substituted afterwards, so a value with spaces (a path)
// stays one argument; nothing ever goes through a shell.
export interface LaunchValues {
  readonly model: string;
  readonly deployConfig: string;
  readonly port: number;
}

export const DEFAULT_SERVER_COMMAND = 'vllm serve ${model} --omni --deploy-config ${deployConfig} --log-stats --port ${port}';

export function expandServerCommand(template: string, values: LaunchValues): string[] {
  const words = template.trim().split(/\s+/).filter((w) => w !== '');
  return words.map((w) =>
    w.replace(/\$\{(model|deployConfig|port)\}/g, (_, key: keyof LaunchValues) => String(values[key])),
  );
}
