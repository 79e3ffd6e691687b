// First UI test: the workbench comes up with Stage Lens loaded in development mode, a deploy
// YAML opens through Quick Open, the command palette runs a command, and a screenshot is saved.
import assert from 'node:assert/strict';
import { uiTest } from '../harness/ui';

uiTest('workbench loads Stage Lens in development mode and opens a deploy YAML', async (wb) => {
  const title = await wb.waitForWindowTitle('Extension Development Host');
  assert.match(title, /\[Extension Development Host\]/);

  await wb.openFile('qwen3_tts.yaml');
  assert.equal(await wb.activeTabTitle(), 'qwen3_tts.yaml');
  await wb.page.locator('.monaco-editor .view-lines', { hasText: 'stage' }).first().waitFor();
  assert.match(await wb.windowTitle(), /qwen3_tts\.yaml/);

  // The palette, with a built-in command: the running-extensions list shows our extension
  // (activated by the YAML file, onLanguage:yaml; listed by display name or id).
  await wb.runCommand('Developer: Show Running Extensions');
  await wb.page
    .locator('.part.editor .monaco-list-row', { hasText: /Stage Lens|stage-lens\.stage-lens/ })
    .first()
    .waitFor();
  await wb.page.keyboard.press('Escape'); // newer VS Code shows that editor as a modal, which would block Ctrl+P

  await wb.openFile('qwen3_tts.yaml');
  await wb.screenshot('workbench-qwen3-tts-yaml');
});
