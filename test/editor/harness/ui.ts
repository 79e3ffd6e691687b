// Registration of UI tests. A UI test file test/editor/ui/<name>.ui.ts calls uiTest() at load time;
// run-ui-tests.ts loads every such file, then runs each test in a fresh browser profile on a
// fresh copy of the fixture workspace, against one shared VS Code server.
import type { Workbench } from './workbench';

export type UiTestBody = (wb: Workbench) => Promise<void>;

export interface UiTestOptions {
  /** Per-test time limit in ms (default 90000, or $STAGE_LENS_UI_TEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Register but do not run (counted as skipped). */
  skip?: boolean;
  /**
   * Drive the packaged extension as a user has it: stage-lens-<version>.vsix installed with the
   * VS Code server's --install-extension, no development folder loaded (`npm run package` first).
   */
  installed?: boolean;
  /**
   * A VS Code server of its own (a fresh user-data folder): no session an earlier test saved is
   * there, as for a user who has never run Stage Lens.
   */
  ownServer?: boolean;
}

export interface RegisteredUiTest {
  readonly name: string;
  readonly file: string;
  readonly body: UiTestBody;
  readonly options: UiTestOptions;
}

const registry: RegisteredUiTest[] = [];
let currentFile = '';

export function uiTest(name: string, body: UiTestBody, options: UiTestOptions = {}): void {
  if (registry.some((t) => t.name === name)) throw new Error(`duplicate UI test name: ${name}`);
  registry.push({ name, file: currentFile, body, options });
}

/** Used by the runner while it loads test files. */
export function setCurrentFile(file: string): void {
  currentFile = file;
}

export function registeredUiTests(): readonly RegisteredUiTest[] {
  return registry;
}
