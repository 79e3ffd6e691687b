// Reading options out of another program's argument vector (argparse conventions).

/** The value of `--name v` or `--name=v` among `args`; the last one wins, as with argparse. */
export function optionValue(args: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === name && i + 1 < args.length) value = args[++i] ?? null;
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}
