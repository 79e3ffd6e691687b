// Several files given to a command that reads one log (analyze, explain): most often a log and
// its rotations (`server.log*`, which a shell lists newest first: server.log, server.log.1, …).
// They are read as one log, oldest first by their rotation number or `dateext` date, other names
// in the order given (capture/joinedFiles.ts); stdin among them, or --follow, cannot be.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { describeArgv } from '../core/shellWords';
import { oldestFirst } from '../core/rotationOrder';
import { readErrorWords } from './deployConfigOption';
import { gzipDamageNote, type GzipDamageProblem, type GzipInputKind } from '../core/gzipInput';
import { joinedName, type JoinedFiles } from '../capture/joinedFiles';
import { urlInputMessage } from './urlInput';

const STDIN_INPUT = '-';

/** What a command reads: one input (a path or '-'), or several files as one log, oldest first. */
export interface InputsToRead {
  /** The input's path, '-', or the several files' names joined (joinedName): how the report names it. */
  readonly source: string;
  /** The several files, oldest first; null for one input. */
  readonly files: readonly string[] | null;
}

/**
 * The positionals (at least one) as what `command` reads, or why they cannot be read (a URL, stdin
 * among several, a file of several that cannot be read: said before anything is read).
 */
export function inputsToRead(command: 'analyze' | 'explain', positionals: readonly string[]): InputsToRead | string {
  if (positionals.length > 1 && positionals.includes(STDIN_INPUT)) return stdinAmongFilesMessage(positionals.length);
  for (const input of positionals) {
    const asUrl = urlInputMessage(command, input);
    if (asUrl !== null) return asUrl;
  }
  return positionals.length > 1 ? joinedInputs(positionals) : { source: positionals[0] ?? '-', files: null };
}

/** Why stdin cannot be read among `count` inputs (`whose`: ' for the baseline', where there are two runs). */
export function stdinAmongFilesMessage(count: number, whose = ''): string {
  return `'-' (stdin) is read alone, not with other inputs (got ${count}${whose}): give the files alone (they are read as one log, oldest first), or pipe them all in.`;
}

/** Several files as one log's, oldest first, or the first of them that cannot be read (said before any is read). */
export function joinedInputs(inputs: readonly string[]): InputsToRead | string {
  const files = oldestFirst(inputs);
  return unreadableFileProblem(files) ?? { source: joinedName(files), files };
}

/** Said on stderr before the report: which files were read as one log, in which order. */
export function readOrderNote(files: readonly string[]): string {
  return `read as one log, oldest first: ${files.join(', ')}`;
}

/**
 * "cannot read server.log.1: no such file" for the first of `files` that cannot be read as a file
 * (a directory, a missing or forbidden file); null when all can. Checked before any is read, so a
 * report is never cut short by the third file.
 */
export function unreadableFileProblem(files: readonly string[]): string | null {
  for (const file of files) {
    let fd: number | null = null;
    try {
      fd = openSync(file, 'r');
      if (fstatSync(fd).isDirectory()) return `cannot read ${file}: is a directory`;
    } catch (err) {
      return `cannot read ${file}: ${readErrorWords(err as NodeJS.ErrnoException)}`;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return null;
}

/** `analyze --follow` of several files: it follows the one being written, the newest. */
export function followOneMessage(inputs: readonly string[]): string {
  const newest = oldestFirst(inputs).at(-1) ?? '';
  return `--follow follows one file, got ${inputs.length}: the one log the server is writing (${describeArgv(['stage-lens', 'analyze', '--follow', newest])}); a rotated log is done growing (without --follow, several files are read as one log).`;
}

/**
 * Where the gzip data broke off and what the report covers (the log, or a scrape's series, before
 * it); of several files (`joined`), which one broke and which were then not read.
 */
export function inputDamageNote(
  damage: GzipDamageProblem,
  kind: GzipInputKind,
  name: string,
  joined: JoinedFiles | null,
): string {
  if (joined === null) return gzipDamageNote(damage, kind, name);
  const later = joined.unread.length === 0 ? '' : `, nor ${joined.unread.join(', ')} after it`;
  return `${joined.damageText(kind) ?? ''}; the report covers ${kind === 'log' ? 'the log' : 'the series'} before it, the rest of ${joined.brokenFile ?? ''} was not read${later}`;
}

/** 1 when some of several files were not read (a gzip file before them broke off: the report is not of the whole log), else 0. */
export function unreadFilesStatus(joined: JoinedFiles | null): number {
  return joined !== null && joined.unread.length > 0 ? 1 : 0;
}
