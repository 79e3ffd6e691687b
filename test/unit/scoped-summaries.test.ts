// A scoped summary's figures are kept while the scope's requests and the stage roles are the
// same; the roles are told apart by their object (the analysis gives the same one while they are
// the same), so asking again reads neither them nor the requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { FindingsBuilder } from '../../server/core/analysis/findings';
import { stageRolesOf } from '../../server/core/stageRoles';
import { ScopedSummaryCache, type ScopedFigures } from '../../server/capture/scopedSummaries';

const LOG = path.resolve(
  __dirname,
  '..',
  'fixtures',
  'upstream-rendered',
  'qwen3tts-talker-first-audio-before-fix.log',
);

/** The analysis of the log, its stage roles given by `names()` (a session's deploy file and source). */
function analysisOf(names: () => string): StreamAnalysis {
  const analysis = new StreamAnalysis({ stageRoles: () => stageRolesOf(names()) });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(fs.readFileSync(LOG)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

/** The figures of every request, findings worded with `roles`, as sessionQueries computes them. */
function figuresOf(analysis: StreamAnalysis, roles: Readonly<Record<string, string>>): ScopedFigures {
  const snapshot = analysis.snapshot();
  const findings = new FindingsBuilder();
  for (const r of snapshot.requests) findings.add(r);
  return {
    requestCount: snapshot.requests.length,
    stages: snapshot.stages,
    replicas: snapshot.replicas,
    findings: findings.findings(snapshot.stages, 200, roles),
    endToEnd: snapshot.endToEnd,
    servers: snapshot.servers,
    tablesMissing: snapshot.tablesMissing,
    edges: snapshot.edges,
    legacyDictRequests: snapshot.legacyRequests,
  };
}

test('the analysis gives the same roles object while its roles are the same, a new one when they change', () => {
  let names = '/logs/qwen3-tts/server.log';
  const analysis = analysisOf(() => names);
  const first = analysis.stageRoles();
  assert.deepEqual(first, { '0': 'talker', '1': 'code2wav' });
  assert.equal(analysis.stageRoles(), first);
  names = '/logs/other/server.log';
  const renamed = analysis.stageRoles();
  assert.deepEqual(renamed, {});
  assert.notEqual(renamed, first);
  assert.equal(analysis.stageRoles(), renamed);
  names = '/logs/qwen3-tts/again.log';
  assert.deepEqual(analysis.stageRoles(), first);
});

test('the figures are kept while the rows and roles are the same, and computed anew when the roles change', () => {
  let names = '/logs/qwen3-tts/server.log';
  const analysis = analysisOf(() => names);
  const cache = new ScopedSummaryCache();
  const scope = { excludeCold: true };
  const rows = [0];
  let computed = 0;
  const ask = (): ScopedFigures => {
    const roles = analysis.stageRoles();
    return cache.get(scope, rows, roles, false, false, () => {
      computed += 1;
      return figuresOf(analysis, roles);
    });
  };
  const named = ask();
  assert.equal(ask(), named);
  assert.equal(computed, 1);
  const codecFinding = (figures: ScopedFigures): string | undefined =>
    figures.findings.find((f) => f.code === 'ttft-not-recorded')?.message;
  assert.match(codecFinding(named) ?? '', /code2wav/);
  // The session's names change (another deploy file): its stages lose their roles, and the summary says so.
  names = '/logs/other/server.log';
  const unnamed = ask();
  assert.equal(computed, 2);
  assert.notEqual(unnamed, named);
  assert.doesNotMatch(codecFinding(unnamed) ?? '', /code2wav/);
  assert.match(codecFinding(unnamed) ?? '', /[Ss]tage 1/);
  assert.equal(ask(), unnamed);
  assert.equal(computed, 2);
});

test('asking again with the same roles does not read them (no key built from their contents)', () => {
  const cache = new ScopedSummaryCache();
  let reads = 0;
  const roles = new Proxy<Record<string, string>>(
    { '0': 'talker', '1': 'code2wav' },
    {
      ownKeys(target) {
        reads += 1;
        return Reflect.ownKeys(target);
      },
      get(target, key) {
        if (typeof key === 'string') reads += 1;
        return Reflect.get(target, key) as unknown;
      },
    },
  );
  const figures = { requestCount: 1 } as ScopedFigures;
  for (let i = 0; i < 3; i++)
    assert.equal(
      cache.get({ boot: 1 }, [4], roles, false, false, () => figures),
      figures,
    );
  assert.equal(reads, 0);
});

test('the figures are computed anew once the log has a DEBUG line, and again once a stats table at DEBUG: its missing-tables notice then says so', () => {
  const cache = new ScopedSummaryCache();
  const roles = {};
  let computed = 0;
  const ask = (debugLines: boolean, statsTablesAtDebug = false): ScopedFigures =>
    cache.get({ excludeCold: true }, [0, 1], roles, debugLines, statsTablesAtDebug, () => {
      computed += 1;
      return { requestCount: computed } as ScopedFigures;
    });
  const before = ask(false);
  assert.equal(ask(false), before);
  const after = ask(true);
  assert.notEqual(after, before);
  assert.equal(ask(true), after);
  assert.equal(computed, 2);
  const atDebug = ask(true, true);
  assert.notEqual(atDebug, after);
  assert.equal(ask(true, true), atDebug);
  assert.equal(computed, 3);
});
