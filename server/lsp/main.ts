// The Stage Lens language server. Runs inside VS Code (IPC from vscode-languageclient)
// and standalone for any LSP editor: `node dist/server.js --stdio`.
// Options: `--storage <dir>` (where sessions are kept when the client passes no
// initializationOptions.storageDir), `--test-numbers <json-file>` serves fixed measured numbers (see
// testStageNumbers.ts); the client may pass `initializationOptions.deployDiagnosticsDelayMs`.
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { registerDeployFeatures, type DeployFeatures } from './deployFeatures';
import { testNumbersFile, testStageNumbers } from './testStageNumbers';
import { startSessionBackend, storageDirFrom } from './sessionBackend';
import { SessionStageNumbers } from './sessionStageNumbers';
import { retentionOption } from './retentionOption';

export interface StageLensServer {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly deploy: DeployFeatures;
}

/** Extra set-up at `initialize` (e.g. the session backend, which needs the client's
 *  initializationOptions); the capabilities it returns are merged into the result. */
export type InitializeHook = (params: InitializeParams) => ServerCapabilities | void;

/** Wires the deploy features onto a connection; further requests can be added to it before `listen`. */
export function createStageLensServer(
  connection: Connection,
  argv: readonly string[],
  onInitialize?: InitializeHook,
): StageLensServer {
  const documents = new TextDocuments(TextDocument);
  const numbersFile = testNumbersFile(argv);
  const deploy = registerDeployFeatures(
    connection,
    documents,
    numbersFile ? { stageNumbers: testStageNumbers(connection, numbersFile) } : {},
  );
  connection.onInitialize((params): InitializeResult => {
    deploy.initialize(params);
    const more = onInitialize?.(params) ?? {};
    return {
      capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, ...deploy.capabilities, ...more },
      serverInfo: { name: 'stage-lens' },
    };
  });
  documents.listen(connection);
  return { connection, documents, deploy };
}

/** The language server of the editor (IPC) or of any LSP client (`--stdio`), until the client ends it. */
export function runServer(): void {
  const connection = createConnection(ProposedFeatures.all);
  const liveNumbers = new SessionStageNumbers();
  const server = createStageLensServer(connection, process.argv, (params) => {
    // Sessions need the storage folder from the client, so they start at initialize.
    const registry = startSessionBackend(
      connection,
      storageDirFrom(params.initializationOptions),
      (info) => liveNumbers.changed(info.deployConfig),
      retentionOption(params.initializationOptions),
      // `server` is assigned by the time the client's initialize runs this hook.
      (file) => server.deploy.openStageIds(file),
    );
    liveNumbers.attach(registry);
  });
  if (testNumbersFile(process.argv) === undefined) server.deploy.setStageNumbers(liveNumbers);
  connection.listen();
}

// dist/server.js (server/lsp/boot.ts) calls runServer; run directly (tsx), this file starts it.
if (require.main === module) runServer();
