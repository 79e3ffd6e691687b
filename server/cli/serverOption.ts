// --server of analyze and explain: one server of a log that merges several servers' (kubectl logs
// --prefix, docker compose logs, stern), named by its lines' tag as the report lists it.
export { serverNoteOf, unknownServerProblem } from '../core/analysis/serverWords';

/** The server asked for (`name`), or why it is not one (`problem`); null when none was asked for. */
export function serverOption(
  text: string | undefined,
): { readonly name: string; readonly problem: null } | { readonly name: null; readonly problem: string } | null {
  if (text === undefined) return null;
  const name = text.trim();
  if (name === '')
    return {
      name: null,
      problem:
        "--server needs a server's name as the report lists it (End to end per server): pod/<pod>/<container> for kubectl logs --prefix, the container for docker compose logs, <pod>/<container> for stern",
    };
  return { name, problem: null };
}
