// The command line of a report command (analyze, compare): its own options plus the ones
// they share (--format, default table; --exclude-cold; -h/--help) and positionals.
import { parseArgs, type ParseArgsConfig } from 'node:util';

const SHARED_OPTIONS = {
  format: { type: 'string', default: 'table' },
  'exclude-cold': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type CommandConfig<O> = { args: string[]; allowPositionals: true; options: typeof SHARED_OPTIONS & O };
type CommandArgs<O> = ReturnType<typeof parseArgs<CommandConfig<O>>>;

/**
 * The parsed command line, or the exit status when there is nothing more to do: --help
 * prints `help` (0); a malformed command line goes to `usage`, which reports it and
 * gives the status.
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  help: string,
  usage: (message: string) => number,
): CommandArgs<O> | number {
  let parsed: CommandArgs<O>;
  try {
    parsed = parseArgs<CommandConfig<O>>({
      args: withNegativeValues(argv, { ...SHARED_OPTIONS, ...options }),
      allowPositionals: true,
      options: { ...SHARED_OPTIONS, ...options },
    });
  } catch (err) {
    return usage(argsErrorText(err as Error & { code?: string }));
  }
  // The values' type is not resolved while O is open; `help` is always among them.
  if ((parsed.values as { readonly help?: boolean }).help === true) {
    process.stdout.write(help + '\n');
    return 0;
  }
  return parsed;
}

/**
 * node:util's message, but for an unknown option, whose text quotes the positional it
 * suggests with unbalanced quotes (`'-- "--bogus"`): said here whole, with the way to give a
 * file whose name starts with '-'.
 */
export function argsErrorText(err: Error & { code?: string }): string {
  const unknown = err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']*)'/.exec(err.message) : null;
  if (unknown === null) return err.message;
  const option = unknown[1] as string;
  return `unknown option '${option}' (an input whose name starts with '-' goes after '--', as in: -- ${option})`;
}

const NEGATIVE_NUMBER = /^-(?:\d|\.\d)/;

/**
 * `--name -5` as `--name=-5` for a string option: node:util takes a value starting with '-'
 * for an option and rejects it as ambiguous, so the option's own check says what it takes.
 */
export function withNegativeValues(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : null;
    if (name !== null && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
