// Bench code bundled by esbuild into one CommonJS file, as dist/ ships the product.
// (Loaded through tsx file by file, every cross-module call and constant goes through an
// export getter, which makes the same code markedly slower than what ships.)
import { buildSync, type BuildOptions } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CORE = join(__dirname, '..', '..', 'server', 'core');

/** Writes the bundle of `input` (an entry point, or source text with its directory) to `out`; returns `out`. */
function writeBundle(out: string, input: Pick<BuildOptions, 'entryPoints' | 'stdin'>): string {
  const built = buildSync({
    ...input,
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

/** Writes the bundle of LogStreamParser and StreamAnalysis to `out` (a .js path) and returns it. */
export function writeCoreBundle(out: string): string {
  return writeBundle(out, {
    stdin: {
      contents: `export { LogStreamParser } from './log/index.ts';\nexport { StreamAnalysis } from './analysis/streamAnalysis.ts';\n`,
      resolveDir: CORE,
      loader: 'ts',
    },
  });
}

/** Writes the bundle of one entry file to `out` and returns it. */
export function writeEntryBundle(out: string, entry: string): string {
  return writeBundle(out, { entryPoints: [entry] });
}
