// Measured numbers for tests and the benchmark, before the session store is plugged in.
// Started with `--test-numbers <json-file>`, the server reads
//   { "<absolute deploy config path>": LiveStageNumbers, ... }
// into an in-memory provider and accepts the notification `stageLensTest/setStageNumbers`
// with `{ deployConfig, numbers }` (numbers null removes them), which fires the same
// change events (and inlay-hint refreshes) a live session would.
import * as fs from 'node:fs';
import type { Connection } from 'vscode-languageserver';
import type { LiveStageNumbers } from '../core/deploy';
import { InMemoryStageNumbers } from './stageNumbersProvider';

export const SET_TEST_NUMBERS = 'stageLensTest/setStageNumbers';

export interface SetTestNumbersParams {
  readonly deployConfig: string;
  readonly numbers: LiveStageNumbers | null;
}

/** The value after `--test-numbers` in argv, or undefined when the flag is absent. */
export function testNumbersFile(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--test-numbers');
  return at >= 0 ? argv[at + 1] : undefined;
}

export function testStageNumbers(connection: Connection, file: string): InMemoryStageNumbers {
  const provider = new InMemoryStageNumbers();
  const initial = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, LiveStageNumbers>;
  for (const [deployConfig, numbers] of Object.entries(initial)) provider.set(deployConfig, numbers);
  connection.onNotification(SET_TEST_NUMBERS, (params: SetTestNumbersParams) =>
    provider.set(params.deployConfig, params.numbers),
  );
  return provider;
}
