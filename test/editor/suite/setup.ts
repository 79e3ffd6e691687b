// Creates the mocha instance of the extension-host tests. index.ts adds the suite bundles to it;
// mocha's run() installs its BDD globals (describe, it, before, after, ...) on globalThis before
// it requires each, so a suite calls describe()/it() at load time.
import Mocha from 'mocha';

export const mocha: Mocha = new Mocha({
  ui: 'bdd',
  reporter: 'spec', // goes to the extension host's console: printed by the harness with VERBOSE=1
  color: false,
  timeout: 30_000,
});
