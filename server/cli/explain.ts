// `stage-lens explain <file...|-|session-folder> [--target T]... [--quantile p95] [--exclude-cold] [--by-boot] [--boot n] [--server name] [--deploy-config <yaml>] [--format table|json]`
// Why the slow requests are slow: tail attribution per target and quantile, load at
// arrival, the breakdown's parts, percentiles over time, cost per token, and the metrics
// that do not report.
import { existsSync } from 'node:fs';
import { readExplainFiles, readExplainInput, type ExplainInput } from '../capture/explainInput';
import { explainJsonText, explainReport, type ExplainReport } from '../core/explain/explainReport';
import { explainTable } from '../core/explain/explainTable';
import { parseTarget, TARGET_GRAMMAR, unknownTargetsText } from '../core/explain/targets';
import { TAIL_QUANTILES, type FindingCitation, type TailQuantile } from '../core/explain/types';
import type { Finding } from '../core/analysis/types';
import { parseCommandArgs } from './commandArgs';
import { inputDamageNote, inputsToRead, readOrderNote, unreadFilesStatus } from './severalInputs';
import { JoinedFiles } from '../capture/joinedFiles';
import { writeOut } from './stdoutWrite';
import { unreadableInputFinding } from '../core/analysis/unreadableInput';
import { terminalText } from '../core/textTable';
import { clockWindowOf, windowOption, placeWindow } from './windowOption';
import { scrapeSelectionProblem } from './scrapeSelection';
import { bootNoteOf, bootOption, unknownBootProblem } from './bootOption';
import { serverNoteOf, serverOption, unknownServerProblem } from './serverOption';
import { EMPTY_INPUT_TEXT } from './analyze';
import { deployConfigOptionProblem, loadDeployEvidence } from './deployConfigOption';
import { encodedSourceName, headerSourceName, type GzipDamageProblem } from '../core/gzipInput';
import { deployConfigJson, type DeployConfigJson } from '../core/deployConfigUsed';
import { sessionRolesNote } from '../core/stageRoles';
import { markFullRun } from '../codeCacheRun';

const HELP = `Usage: stage-lens explain <file...|-|session-folder> [options]

Why a vLLM-Omni server's slow requests are slow. Reads a server log (--log-stats), a
/metrics scrape, or a saved Stage Lens session folder; '-' reads stdin. A gzip-compressed
log (a rotated server.log.1.gz, told by its first bytes) is read as the log inside it.
Several files (a log and its rotations: stage-lens explain server.log*) are read as one log,
oldest first by their rotation number or date, each .gz decompressed on its own.

Each request's end-to-end time is split into additive parts (docs/breakdown.md):
preprocess, each stage's input wait / ready queued (or queued), prefill, decode and the
rest of its generation time, each hand-off (postprocess, tx, in flight, rx decode), and
final output; time two stages ran at once is counted once (overlap), and what no part
explains is the residual. For each target and quantile, the requests at or above the
quantile (the tail) are compared part by part with each part's median, within each
request, and the excesses averaged: the parts that make the tail slow, with their share.

Also: how many requests were in flight when each request arrived (arrival = log
timestamp of its finish - its end to end) and the latency by that load, for all requests
and for the tail; the requests vLLM preempted, in the tail against all; prefill and
decode time against tokens (least squares, shown only when the points support it);
metrics that are registered but read 0 while requests finish; and, in --format json
only, rolling percentiles over time with the engines' running / waiting / KV-cache usage.

Options:
  --target <T>          ${TARGET_GRAMMAR}, in any case;
                        repeat for several (default: every target the log measures)
  --quantile <q>        p90, p95 or p99; repeat for several (default: p95 and p99)
  --exclude-cold        leave the first request after each server start out
  --since <time>        only requests that finished at or after <time>: 'MM-DD HH:MM[:SS]'
                        as the log prints it, or 'HH:MM[:SS]' on the log's first day
  --until <time>        only requests that finished at or before <time> (the same forms)
  --by-boot             one tail attribution and load at arrival per server boot
  --boot <n>            only requests of server boot n (1: the log's first server start; 0:
                        requests before any), for a log whose boots served different pipelines
  --server <name>       only requests of one server of a log that merges several servers'
                        (findings slow-server, servers-differ-in-pipeline), named as analyze
                        lists it: pod/<pod>/<container> (kubectl logs --prefix), the container
                        (docker compose logs), <pod>/<container> (stern)
  --deploy-config <yaml>
                        the deploy YAML the server ran with (base_config overlays resolved):
                        the findings, and the tail parts and preemptions they explain, name what
                        it sets that explains them (e.g. model_runner v2 + async_chunk for a
                        stage whose prefill covers its decode); for a saved session folder,
                        default: the config the session recorded, when it still matches, and
                        the stage roles the session recorded
  --format table|json   output (default table; json is schema 1; its deployConfig and
                        stageRolesFrom say which deploy config and stage roles were used)
  -h, --help            this text

Exit status: 0 when the input was read; 2 for usage or I/O errors, a --deploy-config that
is not a deploy config to read (the reason and the line), an empty input (0 bytes), a --target
of a stage the log does not have, a --boot or --server the log does not have (the message lists
its boots or servers), a window (--since/--until) no request finished in, a /metrics scrape given
--since/--until, --boot or --server (it has no requests to select), or an input that is not a text log (zstd,
xz or bzip2 data, binary data: nothing in it was read; the report says why). Gzip data that
breaks off (a .gz cut short): the report covers the log before the break and says where it
broke (stderr too); exit 0, or 2 when no request came before it; 1 when it is one of several
files and not the last (the files after it were not read; stderr names them).`;

export async function runExplain(argv: string[]): Promise<number> {
  const usage = (message: string): number => {
    process.stderr.write(`stage-lens explain: ${message}\n\n${HELP}\n`);
    return 2;
  };
  const parsed = parseCommandArgs(
    argv,
    {
      target: { type: 'string', multiple: true },
      quantile: { type: 'string', multiple: true },
      'by-boot': { type: 'boolean', default: false },
      'deploy-config': { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      boot: { type: 'string' },
      server: { type: 'string' },
    },
    HELP,
    usage,
  );
  if (typeof parsed === 'number') return parsed;
  const format = parsed.values.format as string;
  if (format !== 'table' && format !== 'json') {
    process.stderr.write(`stage-lens explain: --format must be table or json (got '${format}')\n`);
    return 2;
  }
  const expected = "an input (a file, several read as one log, a session folder, or '-' for stdin)";
  const { positionals } = parsed;
  if (positionals.length === 0) return usage(`expected ${expected}, got 0`);
  const targets: string[] = [];
  for (const t of (parsed.values.target as string[] | undefined) ?? []) {
    const target = parseTarget(t);
    if (target === null) {
      process.stderr.write(`stage-lens explain: --target '${t}' is not a target: ${TARGET_GRAMMAR}\n`);
      return 2;
    }
    // Each once, however it was written (`e2e`, `E2E`): a repeat would print its section twice.
    if (!targets.includes(target.name)) targets.push(target.name);
  }
  const quantiles: TailQuantile[] = [];
  for (const q of (parsed.values.quantile as string[] | undefined) ?? []) {
    const quantile = TAIL_QUANTILES.find((t) => t === q.toLowerCase());
    if (quantile === undefined) {
      process.stderr.write(`stage-lens explain: --quantile must be one of ${TAIL_QUANTILES.join(', ')} (got '${q}')\n`);
      return 2;
    }
    if (!quantiles.includes(quantile)) quantiles.push(quantile);
  }
  const window = windowOption(parsed.values.since as string | undefined, parsed.values.until as string | undefined);
  if (typeof window === 'string') {
    process.stderr.write(`stage-lens explain: ${window}\n`);
    return 2;
  }
  const boot = bootOption(parsed.values.boot as string | undefined);
  if (typeof boot === 'string') {
    process.stderr.write(`stage-lens explain: ${boot}\n`);
    return 2;
  }
  const server = serverOption(parsed.values.server as string | undefined);
  if (server !== null && server.problem !== null) {
    process.stderr.write(terminalText(`stage-lens explain: ${server.problem}\n`));
    return 2;
  }
  const serverName = server?.name ?? null;
  // In the order the report's columns run.
  quantiles.sort((a, b) => TAIL_QUANTILES.indexOf(a) - TAIL_QUANTILES.indexOf(b));
  // Several files (a log and its rotations) are read as one log, oldest first.
  const inputs = inputsToRead('explain', positionals);
  if (typeof inputs === 'string') {
    process.stderr.write(terminalText(`stage-lens explain: ${inputs}\n`));
    return 2;
  }
  const { source, files } = inputs;
  if (files !== null) process.stderr.write(terminalText(`stage-lens explain: ${readOrderNote(files)}\n`));
  const joined = files === null ? null : new JoinedFiles(files);
  const deployConfig = (parsed.values['deploy-config'] as string | undefined) ?? null;
  const configProblem = deployConfig === null ? null : deployConfigOptionProblem(deployConfig);
  if (configProblem !== null) {
    process.stderr.write(`stage-lens explain: ${configProblem}\n`);
    return 2;
  }
  let report: ExplainReport;
  let empty: boolean;
  let deploy: DeployEvidence = NO_DEPLOY_EVIDENCE;
  let deployJson = deployConfigJson(null, 'none', null);
  // What the table says before its numbers, and JSON on stderr: which deploy config it cites, or why none.
  const notes: string[] = [];
  let compression: 'gzip' | null;
  let gzipDamage: GzipDamageProblem | null;
  let kind: 'log' | 'scrape' = 'log';
  try {
    const readOptions = {
      ...(boot === null ? {} : { boot }),
      ...(serverName === null ? {} : { server: serverName }),
    };
    const raw =
      joined === null
        ? await readExplainInput(source, process.stdin, deployConfig, readOptions)
        : await readExplainFiles(joined, deployConfig, readOptions);
    // A scrape has no requests to select: either option is a usage problem, said before any report.
    const scrapeProblem =
      raw.kind === 'scrape'
        ? scrapeSelectionProblem(source === '-' ? 'stdin' : source, 'explain', {
            window: window !== null,
            boot: boot !== null,
            server: serverName !== null,
          })
        : null;
    if (scrapeProblem !== null) {
      process.stderr.write(terminalText(`stage-lens explain: ${scrapeProblem}\n`));
      return 2;
    }
    empty = raw.empty;
    if (!empty) markFullRun();
    const bootProblem = raw.kind === 'scrape' ? null : unknownBootProblem(raw.bootCounts ?? null);
    if (bootProblem !== null) {
      process.stderr.write(`stage-lens explain: ${bootProblem}\n`);
      return 2;
    }
    const serverProblem = raw.kind === 'scrape' ? null : unknownServerProblem(raw.serverCounts ?? null);
    if (serverProblem !== null) {
      process.stderr.write(terminalText(`stage-lens explain: ${serverProblem}\n`));
      return 2;
    }
    const bootNote = bootNoteOf(raw.bootCounts ?? null);
    if (bootNote !== null && format === 'table') process.stderr.write(`stage-lens explain: ${bootNote}\n`);
    const serverNote = serverNoteOf(raw.serverCounts ?? null);
    if (serverNote !== null && format === 'table')
      process.stderr.write(terminalText(`stage-lens explain: ${serverNote}\n`));
    compression = raw.compression;
    gzipDamage = raw.gzipDamage;
    if (raw.kind === 'scrape') kind = 'scrape';
    const unknown = unknownTargetsText(
      targets,
      raw.index.targets(),
      raw.index.stages().map((s) => s.stageKey),
    );
    if (unknown !== null) {
      process.stderr.write(`stage-lens explain: ${unknown}\n`);
      return 2;
    }
    const placed = window === null ? {} : placeWindow(raw.index, raw.windowOn(window));
    if (typeof placed === 'string') {
      process.stderr.write(`stage-lens explain: ${placed}\n`);
      return 2;
    }
    // The engine lines judged are the window's, as analyze judges them (metric-not-reporting).
    const input: ExplainInput =
      window === null ? raw : { ...raw, findings: raw.findingsInWindow(clockWindowOf(placed)) };
    if (deployConfig !== null) {
      deploy = deployEvidenceOf(input, deployConfig);
      deployJson = deployConfigJson(deployConfig, 'flag', deploy.mismatch);
    } else if (typeof input.sessionDeployConfig === 'string') {
      const session = sessionDeployEvidence(input, input.sessionDeployConfig);
      deploy = session.evidence;
      deployJson = session.json;
      notes.push(session.note);
    }
    if (deploy.mismatch !== null) notes.push(deploy.mismatch);
    if (input.stageRolesFrom === 'session') notes.push(sessionRolesNote(input.stageRoles));
    const read = explainReport(
      input.index,
      source === '-' ? 'stdin' : source,
      {
        ...(targets.length === 0 ? {} : { targets }),
        ...(quantiles.length === 0 ? {} : { quantiles }),
        scope: { excludeCold: parsed.values['exclude-cold'] === true, ...placed },
        byBoot: parsed.values['by-boot'] === true,
        ...(boot === null ? {} : { boot }),
        ...(serverName === null ? {} : { server: serverName }),
        stageRoles: input.stageRoles,
        overallSummaryTables: input.overallSummaryTables,
        overallSummaryCutOff: input.overallSummaryCutOff,
        debugLines: input.debugLines,
        statsTablesAtDebug: input.statsTablesAtDebug,
        noStageStats: input.noStageStats,
      },
      input.gauges,
      deploy.findings ?? input.findings,
    );
    report = { ...read, stageRolesFrom: input.stageRolesFrom, deployConfig: deployJson };
    if (input.kind === 'scrape' && format === 'table') {
      const inputName = source === '-' ? 'stdin' : source;
      const header = headerSourceName(encodedSourceName(inputName, { compression }), gzipDamage);
      await writeOut(terminalText(scrapeText(report, header, input.scrapeChecks ?? [])));
      if (gzipDamage !== null)
        process.stderr.write(
          terminalText(`stage-lens explain: ${inputDamageNote(gzipDamage, kind, inputName, joined)}\n`),
        );
      return unreadFilesStatus(joined);
    }
  } catch (err) {
    process.stderr.write(`stage-lens explain: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const name = source === '-' ? 'stdin' : source;
  // An input without a byte: nothing was read, as analyze and compare say (a status of 0 would pass a script that read nothing).
  // A config whose stages are not the log's, a session's own config and its recorded stage roles:
  // said once, before the numbers (the JSON has them as fields, its sentences on stderr, as analyze says them).
  const { citations } = deploy;
  if (format === 'json') for (const note of notes) process.stderr.write(terminalText(`stage-lens explain: ${note}\n`));
  // The table names a gzip input as such; the JSON's source stays the path given.
  const tableName = headerSourceName(encodedSourceName(name, { compression }), gzipDamage);
  const table = empty
    ? [`Stage Lens explain: ${tableName} · 0 requests`, '', EMPTY_INPUT_TEXT]
    : explainTable(
        { ...report, source: headerSourceName(encodedSourceName(report.source, { compression }), gzipDamage) },
        { citations, ...(notes.length === 0 ? {} : { inputNote: notes.join('\n') }) },
      );
  await writeOut(format === 'json' ? explainJsonText(report) + '\n' : terminalText(table.join('\n')) + '\n');
  if (empty) {
    process.stderr.write(`stage-lens explain: nothing in ${name} was read: it is empty (0 bytes)\n`);
    return 2;
  }
  // The report says why; the status fails a script or CI job that reads nothing.
  // A scrape has no requests: its series before a gzip break are what it holds (its finding says so).
  const unreadable =
    report.requestCount === 0 && kind !== 'scrape' ? unreadableInputFinding(report.findings) : undefined;
  if (gzipDamage !== null && (unreadable === undefined || joined !== null))
    process.stderr.write(terminalText(`stage-lens explain: ${inputDamageNote(gzipDamage, kind, name, joined)}\n`));
  if (unreadable !== undefined) {
    process.stderr.write(`stage-lens explain: ${name}: ${unreadable.message}\n`);
    return 2;
  }
  return unreadFilesStatus(joined);
}

/** `name`: the scrape's, as a header names it ("metrics.prom.gz (gzip), partial: gzip data cut after 24 KB"). */
function scrapeText(report: ExplainReport, name: string, checks: readonly string[]): string {
  const out = [`Stage Lens explain: /metrics scrape from ${name}: no per-request values, so no tail to explain.`, ''];
  const notReporting = report.findings.filter((f) => f.code === 'metric-not-reporting');
  if (notReporting.length === 0) out.push('No metric that is registered but does not report was found.');
  for (const f of notReporting) {
    out.push(f.message);
    for (const c of f.knownCauses ?? []) out.push(`  known cause: ${c}`);
  }
  // What the verdict rests on: a check that could not run is said, never taken as passed.
  if (checks.length > 0) out.push('', ...checks);
  // A text cut short (a cut .gz is said in the header and on stderr).
  for (const f of report.findings) if (f.code === 'input-cut-short') out.push('', f.message);
  return out.join('\n') + '\n';
}

/** What `--deploy-config` adds to a report: the findings citing it, the same citations for the table, or why it is no evidence. */
interface DeployEvidence {
  /** The input's findings with the config's sentences; null without the option. */
  readonly findings: readonly Finding[] | null;
  readonly citations: readonly FindingCitation[];
  /** The config's stages are not the log's: its settings are cited nowhere. */
  readonly mismatch: string | null;
}

const NO_DEPLOY_EVIDENCE: DeployEvidence = { findings: null, citations: [], mismatch: null };

/**
 * The deploy config a saved session recorded (launched with, matched in the editor), which its
 * views cite: its evidence when the file still serves and its stages are still the session's,
 * else none; with the sentence that says which (the first of the report).
 */
function sessionDeployEvidence(
  input: ExplainInput,
  file: string,
): { evidence: DeployEvidence; note: string; json: DeployConfigJson } {
  const head = `deploy config: ${file} (the session's)`;
  const problem = existsSync(file) ? loadDeployEvidence().deployConfigProblem(file) : 'no longer exists';
  if (problem !== null)
    return {
      evidence: NO_DEPLOY_EVIDENCE,
      note: `${head}: it ${problem}, so the report goes on without it.`,
      json: deployConfigJson(file, 'session', `It ${problem}.`),
    };
  const evidence = deployEvidenceOf(input, file);
  if (evidence.mismatch !== null)
    return {
      evidence: NO_DEPLOY_EVIDENCE,
      note: `${head}: it no longer matches the session, so the report goes on without it. ${evidence.mismatch}`,
      json: deployConfigJson(file, 'session', evidence.mismatch),
    };
  return { evidence, note: head, json: deployConfigJson(file, 'session', null) };
}

/** The evidence of `deployConfig` for a read input, by analyze's rules (deployEvidence.ts, loaded only here). */
function deployEvidenceOf(input: ExplainInput, deployConfig: string): DeployEvidence {
  const evidence = loadDeployEvidence();
  const mismatch = evidence.deployConfigMismatchOf(deployConfig, input);
  return {
    findings: evidence.findingsWithDeployEvidence(input.findings, deployConfig, input, mismatch),
    citations: evidence.deployCitations(input.findings, deployConfig, input, mismatch),
    mismatch,
  };
}
