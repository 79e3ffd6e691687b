// The limits of the log prefix's grammar, written once for every reader of the prefix:
//
//   [source tag ][CI stamp ][(process) ][[Stage-N] ]LEVEL MM-DD HH:MM:SS [path:line] message
//   [CI stamp ]LEVEL:logger.name:message                    (Python's default format)
//
//   reader                               where                    reads
//   the scanner (a prefix at the start)  prefix.ts scanPrefix     all of them, by hand
//   the search (a prefix anywhere)       prefix.ts searchPrefix   HEADER, then process and stage by hand
//   the source tag (merged servers)     sourceTag.ts             pod, container and service names, by hand
//   the Python default reader            prefix.ts pythonDefault… logger name, by hand
//   the reference regular expressions    prefix.ts CI_STAMP, PYTHON_DEFAULT (the hand readers' references)
//   the prefix templates                 prefixTemplates.ts       line digits (the rest is a learned shape)
//   the raw-prefix matcher               rawPrefixMatch.ts        none: it compares with a prefix one of
//                                                                 the above accepted, byte for byte
//
// The regular expressions spell these numbers inside their literals (a literal, not a
// RegExp built from the constants, so that regex-linearity.test.ts can read and time it);
// log-prefix-limits.test.ts holds every reader to every limit: at the limit accepted by all,
// one over refused by all.

/** Length of `MM-DD HH:MM:SS`. */
export const TIMESTAMP_LENGTH = 14;
/** Longest source path of a call site `[path:line]` (HEADER's `[^\]\s]{1,300}`). */
export const MAX_CALL_SITE_PATH = 300;
/** Most digits of a call site's line number (HEADER's `\d{1,9}`). */
export const MAX_CALL_SITE_LINE_DIGITS = 9;
/** Longest process name inside `(…)` (parentheses nested in it included). */
export const MAX_PROCESS_NAME = 120;
/** Most digits of N in `[Stage-N]`. */
export const MAX_STAGE_DIGITS = 6;
/** Longest logger name of Python's default format (PYTHON_DEFAULT's first character and `{0,119}`). */
export const MAX_LOGGER_NAME = 120;
/** Most digits of a CI timestamp's fraction of a second (CI_STAMP's `\.\d{1,9}`). */
export const MAX_CI_FRACTION_DIGITS = 9;
/** Longest name in a source tag: a pod, container or compose service name (Kubernetes allows 253), each part of `[pod/<pod>/<container>]` alike. */
export const MAX_SOURCE_TAG = 253;
/** Longest host name or identifier of a journal prefix (`host ident[pid]: `, journalPrefix.ts). */
export const MAX_JOURNAL_FIELD = 255;
