// dist/server.js, the language server's entry: loads the server (dist/server-main.js, a bundle
// of its own) through V8's code cache, so a new window's server does not compile it again.
import { withCodeCache } from '../codeCache';

withCodeCache(__dirname, () => (require('./main') as typeof import('./main')).runServer());
