// A command line as a person reads or pastes it: words quoted as a POSIX shell takes them. For
// display only; Stage Lens never runs a command through a shell.

/** The argument vector as one line a shell would split back into the same words. */
export function describeArgv(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

export function shellQuote(a: string): string {
  return a !== '' && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
