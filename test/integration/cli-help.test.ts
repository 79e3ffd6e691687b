// Asking the built dist/cli.js for help, and mistyping a command: `help <command>` prints the
// command's own --help text, an unknown command names the nearest one when one is close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as cli } from './support/cliProcess';

test('help <command> prints exactly what <command> --help prints, exit 0', () => {
  for (const command of ['analyze', 'explain', 'compare', 'simulate', 'demo']) {
    const viaHelp = cli(['help', command]);
    const viaFlag = cli([command, '--help']);
    assert.equal(viaHelp.status, 0, viaHelp.stderr);
    assert.equal(viaFlag.status, 0, viaFlag.stderr);
    assert.match(viaHelp.stdout, new RegExp(`^Usage: stage-lens ${command} `));
    assert.equal(viaHelp.stdout, viaFlag.stdout, command);
    assert.equal(viaHelp.stderr, '');
  }
  // Bare `help` (and `help --help`) is still the general usage.
  for (const args of [['help'], ['help', '--help'], ['--help']]) {
    const general = cli(args);
    assert.equal(general.status, 0);
    assert.match(general.stdout, /^Usage: stage-lens <command> \[options\]\n\nCommands:\n/);
  }
});

test('help <unknown> is a usage error: exit 2, nothing on stdout', () => {
  const near = cli(['help', 'analyz']);
  assert.equal(near.status, 2);
  assert.equal(near.stdout, '');
  assert.equal(
    near.stderr,
    "stage-lens help: unknown command 'analyz': did you mean 'analyze'?\nRun 'stage-lens --help' for the commands.\n",
  );
  const far = cli(['help', 'bogus']);
  assert.equal(far.status, 2);
  assert.equal(far.stdout, '');
  assert.match(far.stderr, /^stage-lens help: unknown command 'bogus'\n\nUsage: stage-lens <command>/);
});

test('an unknown command close to one names it; a far one prints the usage', () => {
  const cases: [string, string][] = [
    ['analyz', 'analyze'],
    ['compre', 'compare'],
    ['explian', 'explain'],
    ['Demo', 'demo'],
    ['simulat', 'simulate'],
  ];
  for (const [typed, meant] of cases) {
    const run = cli([typed, 'x.log']);
    assert.equal(run.status, 2, typed);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      `stage-lens: unknown command '${typed}': did you mean '${meant}'?\nRun 'stage-lens --help' for the commands.\n`,
    );
  }
  const far = cli(['frobnicate']);
  assert.equal(far.status, 2);
  assert.equal(far.stdout, '');
  assert.match(far.stderr, /^stage-lens: unknown command 'frobnicate'\n\nUsage: stage-lens <command> \[options\]\n/);
  assert.doesNotMatch(far.stderr, /did you mean/);
});
