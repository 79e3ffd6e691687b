// The parser and the analysis bundled by esbuild into one CommonJS file, as dist/ ships them.
// (Loaded through tsx file by file, every cross-module call and constant goes through an
// export getter, which makes the same code markedly slower than what ships.)
import { buildSync } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CORE = join(__dirname, '..', '..', 'server', 'core');

/** Writes the bundle of LogStreamParser and StreamAnalysis to `out` (a .js path) and returns it. */
export function writeCoreBundle(out: string): string {
  const built = buildSync({
    stdin: {
      contents: `export { LogStreamParser } from './log/index.ts';\nexport { StreamAnalysis } from './analysis/streamAnalysis.ts';\n`,
      resolveDir: CORE,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(out, built.outputFiles[0]?.text ?? '');
  return out;
}
