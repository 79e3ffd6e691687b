// `npm run bench`: speed and memory figures (not tests). Prints each figure as it is
// measured. Options: --quick (smaller sizes), --skip <parse,live,summary,deploy,webview,compare,trace,activation,explain,cold,import>.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runParseBench } from './bench/parse';
import { liveIngestBench, summaryQueryBench } from './bench/live';
import { runTraceBench } from './bench/trace';
import { runCompareBench } from './bench/compare';
import { runActivationBench } from './bench/activation';
import { explainQueryBench, explainVsAnalyzeBench } from './bench/explain';
import { runColdBench } from './bench/cold';
import { runImportLogBench } from './bench/importLog';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const skip = new Set((args[args.indexOf('--skip') + 1] ?? '').split(','));
const log = (line: string): void => console.log(line);
const ROOT = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  console.log(
    `Stage Lens benchmark · node ${process.version} · ${new Date().toISOString()}${quick ? ' · quick' : ''}\n`,
  );
  if (!skip.has('parse')) {
    console.log('== log parser');
    runParseBench({ targetBytes: quick ? 40e6 : 200e6, runs: quick ? 1 : 5, log });
  }
  if (!skip.has('summary')) {
    console.log('\n== summary query at 100k requests');
    summaryQueryBench(100_000, log);
  }
  if (!skip.has('live')) {
    console.log('\n== live ingest of the simulator');
    await liveIngestBench(500, quick ? 10 : 60, log);
    // Headroom: the same pipeline with simulated time running 3x faster, 1,500 requests/s of wall time.
    if (!quick) await liveIngestBench(500, 20, log, 3);
  }
  if (!skip.has('deploy')) {
    console.log('\n== deploy YAML features on a 5,000-line file');
    spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/bench-deploy.ts'), '--rounds', quick ? '1' : '3'],
      { stdio: 'inherit', cwd: ROOT },
    );
  }
  if (!skip.has('trace')) {
    console.log(`\n== trace export (Chrome trace for Perfetto) of ${quick ? '20k' : '100k'} requests`);
    await runTraceBench(quick ? 20_000 : 100_000, log, quick ? 1 : 3);
  }
  if (!skip.has('webview')) {
    console.log('\n== latency panel with 100k requests in headless Chromium');
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/webview.ts')], {
      stdio: 'inherit',
      cwd: ROOT,
    });
  }
  if (!skip.has('compare')) {
    console.log('\n== compare of two 100k-request logs, end to end');
    runCompareBench({ requests: quick ? 20_000 : 100_000, runs: quick ? 1 : 3, log });
  }
  if (!skip.has('activation')) {
    console.log(
      `\n== language-server activation with 3 saved sessions of ${quick ? 20 : 200} MB each, against an empty storage folder`,
    );
    await runActivationBench({ sessionBytes: (quick ? 20 : 200) * 1024 * 1024, rounds: quick ? 3 : 5, log });
  }
  if (!skip.has('explain')) {
    console.log(
      `\n== why a request is slow: queries at ${quick ? '20k' : '100k'} requests in a live session, explain against analyze`,
    );
    explainQueryBench(quick ? 20_000 : 100_000, log);
    explainVsAnalyzeBench(quick ? 40e6 : 200e6, quick ? 2 : 5, log);
  }
  if (!skip.has('cold')) {
    console.log(
      `\n== analyze as users run it: whole cold processes (dist/cli.js, run npm run build first), each round alternated with the floor process, on the ${quick ? '40' : '200'} MB bench log and ${quick ? '2,000' : '10,000'} two-stage requests`,
    );
    await runColdBench({ quick, log });
  }
  if (!skip.has('import')) {
    console.log(
      `\n== the editor's Import Log... of the ${quick ? '40' : '200'} MB bench log in a real VS Code, against analyze on the same file`,
    );
    await runImportLogBench({ quick, log });
  }
}

// Exits when every part is done (a browser or VS Code server a part started must not keep it alive).
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
