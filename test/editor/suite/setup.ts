// Creates the mocha instance of the extension-host tests and installs mocha's BDD globals
// (describe, it, before, after, beforeEach, afterEach, ...) on globalThis.
// index.ts imports this module FIRST, so the suite files it imports after it can call
// describe()/it() at load time; everything lands in this one bundle, dist/test/editor/index.js.
import Mocha from 'mocha';

export const mocha: Mocha = new Mocha({
  ui: 'bdd',
  reporter: 'spec', // goes to the extension host's console: printed by the harness with VERBOSE=1
  color: false,
  timeout: 30_000,
});

mocha.suite.emit('pre-require', globalThis, 'dist/test/editor/index.js', mocha);
