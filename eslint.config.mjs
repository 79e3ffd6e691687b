// ESLint flat config (docs/workshop.md says what it checks and how to run it).
// TypeScript: typescript-eslint's recommended set with type information (the project service reads
// tsconfig.json and webview/tsconfig.json), plus type-only imports. Plain JavaScript (the build
// script, two small Node scripts, this file): ESLint's recommended set.
// Each rule turned off or bent below says why; everything else in the recommended sets is on.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals that the plain JavaScript files use (they run in Node, never in a browser). */
const nodeGlobals = {
  Buffer: 'readonly',
  TextDecoder: 'readonly',
  console: 'readonly',
  process: 'readonly',
  require: 'readonly',
  setInterval: 'readonly',
  setTimeout: 'readonly',
};

export default tseslint.config(
  {
    // Built output, installed packages and what the tests and benchmarks write.
    ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-output/**', 'bench-output/**', '.vscode-test/**'],
  },
  // A disable comment that no longer suppresses anything is an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Types are imported as types: the bundles and the webviews never load a module for a type.
      '@typescript-eslint/consistent-type-imports': 'error',
      // node:test's test()/describe()/it() return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      // `const { dropped: _dropped, ...rest } = x` is how a field is left out of a copy; `_arg` is an
      // argument an interface passes that this implementation does not need.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      // A caught value of unknown type is passed on as it is (`Promise.reject(err)` in a catch).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Off: ~500 of its ~570 hits are `xs[i] as T` casts, redundant only while tsconfig leaves
      // noUncheckedIndexedAccess off; that choice is open (issue 16 §4). Once made, turn this on
      // (`npx eslint --fix` drops the casts that are then redundant).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: `async` marks functions whose callers take a promise (VS Code's activate(), a webview
      // serializer) even where the body has nothing to await; it turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      // Off: the catch blocks that throw a new Error turn an I/O error into the sentence a user reads
      // (the cause's text is in it); those errors cross worker threads and the language-server
      // connection as that message alone.
      'preserve-caught-error': 'off',
      // Off: the logs are terminal output; matching ESC and C0 control characters is the job.
      'no-control-regex': 'off',
      // Off: test regexes match printed, column-aligned text; `  ` reads as the output does, ` {2}` does not.
      'no-regex-spaces': 'off',
    },
  },
  {
    // Lazy, synchronous loading on purpose. The CLI requires each command's own bundle when that
    // command runs (scripts/build.mjs, `commandsApart`), typed by `typeof import(...)`, and
    // `analyze` and `explain` the deploy-config evidence (and the YAML library) only with
    // --deploy-config (server/cli/deployConfigOption.ts); the
    // benchmarks require the bundle they just built; mocha's UI runner requires its test files;
    // the language server's entry requires the server's bundle through the code cache; zlib and
    // worker_threads are required where a gzip input or a parse worker needs them (each costs a
    // one-shot `analyze` of a plain log ~4 ms at start-up).
    files: [
      'server/cli/main.ts',
      'server/cli/deployConfigOption.ts',
      'server/capture/gunzipInput.ts',
      'server/cli/parseInWorker.ts',
      'server/lsp/boot.ts',
      'scripts/bench/*.ts',
      'test/editor/harness/run-ui-tests.ts',
    ],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // Log-derived text (file names, session titles, pod names) in a notification could be drawn
    // as a link, in a quick pick, a status bar message or a progress title as an icon: the
    // extension shows them through src/notify.ts and src/quickPick.ts, which keep such text as
    // written (server/core/plainText.ts).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^show(Information|Warning|Error)Message$/]',
          message: 'Use showInformation / showWarning / showError from src/notify.ts (messages without links).',
        },
        {
          selector: "MemberExpression[property.name='showQuickPick']",
          message: 'Use showPick from src/quickPick.ts (rows without icons from data).',
        },
        {
          selector: "MemberExpression[property.name='setStatusBarMessage']",
          message: 'Use showStatusMessage from src/notify.ts (text without icons from data).',
        },
        {
          selector: "MemberExpression[object.property.name='window'][property.name='withProgress']",
          message: 'Use withTitledProgress from src/notify.ts (a title without icons or links from data).',
        },
      ],
    },
  },
  {
    // A field schema's record builder is compiled once with `new Function` (V8 then creates each
    // record with its final layout; the file's header says why and how field names stay literals).
    files: ['server/core/log/fieldMaps.ts'],
    rules: { '@typescript-eslint/no-implied-eval': 'off' },
  },
  {
    // Walks a chain of schemas from `this` to its parents: `let s = this` is the loop's start, not a
    // saved `this` for a callback (what the rule is for).
    files: ['server/core/log/fieldSchema.ts'],
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
);
