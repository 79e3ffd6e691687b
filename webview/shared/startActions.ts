// Every way to start a session, as the empty state offers it: grouped by what the user has
// (nothing yet, a server to run, a server already running, a log or a saved session), each
// button running the palette's command (server/protocol.ts WEBVIEW_COMMANDS). DOM-free.
import type { WebviewCommand } from '../../server/protocol';

export type StartGroupId = 'try' | 'run' | 'watch' | 'read';

export interface StartAction {
  readonly command: WebviewCommand;
  /** The palette's title, with an ellipsis where the command asks for more. */
  readonly label: string;
  readonly title: string;
}

export interface StartGroup {
  readonly id: StartGroupId;
  readonly heading: string;
  readonly actions: readonly StartAction[];
}

const HEADINGS: { readonly [G in StartGroupId]: string } = {
  try: 'Try it',
  run: 'Run your server',
  watch: 'Watch a running server',
  read: 'Read a log or a saved session',
};

/** One entry per command of WEBVIEW_COMMANDS (a command without one does not compile), in this order within its group. */
const ACTIONS: {
  readonly [C in WebviewCommand]: { readonly group: StartGroupId; readonly label: string; readonly title: string };
} = {
  startDemo: {
    group: 'try',
    label: 'Start Demo Server',
    title: 'The built-in vLLM-Omni simulator: live numbers in seconds.',
  },
  launch: { group: 'run', label: 'Launch Server…', title: 'Start vllm serve and capture its stats log and /metrics.' },
  attachProcess: {
    group: 'watch',
    label: 'Attach to Running Server…',
    title: 'Pick a running vLLM-Omni server process and follow its log.',
  },
  attachLog: { group: 'watch', label: 'Attach to Log File…', title: "Follow a server's log file as it grows." },
  attachMetrics: {
    group: 'watch',
    label: 'Attach to Metrics URL…',
    title: "Scrape a server's /metrics endpoint.",
  },
  attachPrometheus: {
    group: 'watch',
    label: 'Attach to Prometheus…',
    title: "Query a Prometheus server for a deployment's metrics.",
  },
  importLog: { group: 'read', label: 'Import Log…', title: 'Read a whole log file (plain or gzip) once.' },
  openSession: { group: 'read', label: 'Open Session…', title: 'Show a session captured before.' },
};

export const START_GROUPS: readonly StartGroup[] = (Object.keys(HEADINGS) as StartGroupId[]).map((id) => ({
  id,
  heading: HEADINGS[id],
  actions: (Object.keys(ACTIONS) as WebviewCommand[])
    .filter((command) => ACTIONS[command].group === id)
    .map((command) => ({ command, label: ACTIONS[command].label, title: ACTIONS[command].title })),
}));

/** The one action drawn as the primary button. */
export const PRIMARY_START: WebviewCommand = 'startDemo';
