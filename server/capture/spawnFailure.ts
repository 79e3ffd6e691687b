// Why a launched command could not start, in words that name what was looked for: the
// program and where it was searched (each PATH directory, or the path it resolves to),
// and the working directory. Shown in the notification and in the server's terminal.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** At most this many PATH directories are named; the rest are counted. */
const MAX_DIRS_SHOWN = 8;

function isExecutableFile(file: string): 'yes' | 'not-executable' | 'directory' | 'missing' {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch {
    return 'missing';
  }
  if (stats.isDirectory()) return 'directory';
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return 'yes';
  } catch {
    return 'not-executable';
  }
}

function listDirs(dirs: readonly string[]): string {
  const shown = dirs.slice(0, MAX_DIRS_SHOWN).join(', ');
  return dirs.length > MAX_DIRS_SHOWN ? `${shown} and ${dirs.length - MAX_DIRS_SHOWN} more` : shown;
}

/**
 * The message for a failed spawn of `program` in `cwd` with `searchPath` (the PATH the
 * command was given). `code` is the errno code (ENOENT, EACCES, ...), `message` Node's text.
 */
export function describeSpawnFailure(
  program: string,
  cwd: string,
  searchPath: string,
  code: string | null,
  message: string,
): string {
  const head = `cannot start "${program}" in ${cwd}`;
  let cwdState: ReturnType<typeof isExecutableFile>;
  try {
    cwdState = fs.statSync(cwd).isDirectory() ? 'directory' : 'yes';
  } catch {
    cwdState = 'missing';
  }
  if (cwdState === 'missing') return `cannot start "${program}": the working directory ${cwd} does not exist`;
  if (cwdState !== 'directory') return `cannot start "${program}": the working directory ${cwd} is not a directory`;

  const hasSlash = program.includes('/') || (process.platform === 'win32' && program.includes('\\'));
  if (hasSlash) {
    const resolved = path.resolve(cwd, program);
    switch (isExecutableFile(resolved)) {
      case 'missing':
        return `${head}: ${resolved} not found`;
      case 'directory':
        return `${head}: ${resolved} is a directory, not a program`;
      case 'not-executable':
        return `${head}: ${resolved} is not executable (permission denied; chmod +x it?)`;
      case 'yes':
        return `${head}: ${resolved}: ${code ?? ''} ${message}`.trim();
    }
  }
  const dirs = searchPath.split(path.delimiter).filter((d) => d !== '');
  if (code === 'ENOENT') {
    if (dirs.length === 0)
      return `${head}: not found, and the command's PATH is empty (give the full path of the program)`;
    return `${head}: not found on PATH (looked in ${listDirs(dirs)}); give its full path in stageLens.serverCommand, or add its directory to PATH in stageLens.serverEnv`;
  }
  if (code === 'EACCES') {
    for (const dir of dirs) {
      const candidate = path.resolve(cwd, dir, program);
      const state = isExecutableFile(candidate);
      if (state === 'not-executable')
        return `${head}: ${candidate} is not executable (permission denied; chmod +x it?)`;
      if (state === 'directory') return `${head}: ${candidate} is a directory, not a program`;
    }
    return `${head}: permission denied (is it executable?)`;
  }
  return `${head}: ${message}`;
}
