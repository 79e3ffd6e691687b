// Parsing never throws and keeps what it can: half-typed text, tabs, anchors and
// aliases (and `<<` merges), several documents, YAML 1.1 booleans as PyYAML reads them,
// and recognition by content, not by file name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deployDiagnostics } from '../../server/core/deploy';
import { entryOf, isList, toPlain, valueOf } from '../../server/core/deploy/configTree';
import { parseDeployFile } from '../../server/core/deploy/parsedFile';
import { isDeployConfig } from '../../server/core/deploy/recognise';
import { analyzeVirtual, summary } from './support/deployHelpers';

test('recognised by content: stages with stage_id, or base_config', () => {
  const yes = (text: string) => isDeployConfig(parseDeployFile('/x/anything.txt', text).root);
  assert.equal(yes('stages:\n  - stage_id: 0\n'), true);
  assert.equal(yes('base_config: other.yaml\n'), true);
  assert.equal(yes('stages:\n  - name: build\n'), false);
  assert.equal(yes('apiVersion: v1\nkind: Pod\n'), false);
  assert.equal(yes(''), false);
  assert.equal(yes('- stage_id: 0\n'), false);
});

test('anchors, aliases and merge keys read as PyYAML reads them', () => {
  const text =
    'defaults: &d\n  max_num_seqs: 8\n  enforce_eager: yes\nstages:\n  - stage_id: 0\n    <<: *d\n    max_num_seqs: 16\n  - stage_id: 1\n    default_sampling_params: &s {temperature: 0.5}\n  - stage_id: 2\n    default_sampling_params: *s\n';
  const file = parseDeployFile('/x/d.yaml', text);
  const stages = toPlain(
    valueOf(file.root, 'stages') ?? { kind: 'list', items: [], location: file.lines.location(0, 0) },
  );
  assert.deepEqual(stages, [
    { max_num_seqs: 16, enforce_eager: true, stage_id: 0 },
    { stage_id: 1, default_sampling_params: { temperature: 0.5 } },
    { stage_id: 2, default_sampling_params: { temperature: 0.5 } },
  ]);
  assert.deepEqual(file.problems, []);
  // a merged key points at where it is written: under the anchor
  const list = valueOf(file.root, 'stages');
  assert.ok(isList(list));
  const merged = entryOf(list.items[0], 'enforce_eager');
  assert.equal(merged?.keyLocation.range.start.line, 2);
  assert.deepEqual(summary(deployDiagnostics(analyzeVirtual({ 'd.yaml': text }, 'd.yaml'))), []);
});

test('a self-referencing alias does not hang or throw', () => {
  const file = parseDeployFile('/x/a.yaml', 'a: &x [1, *x]\nstages:\n  - stage_id: 0\n');
  assert.equal(isDeployConfig(file.root), true);
});

test('invalid YAML mid-edit keeps the parts that parsed', () => {
  const text = 'async_chunk: true\nstages:\n  - stage_id: 0\n    max_num_seqs: [1, 2\n  - stage_id: 1\n';
  const file = parseDeployFile('/x/e.yaml', text);
  assert.ok(file.problems.some((p) => p.code === 'yaml-syntax' && p.severity === 'error'));
  assert.equal(isDeployConfig(file.root), true);
  assert.equal(toPlain(valueOf(file.root, 'async_chunk') ?? valueOf(file.root, 'x')!), true);
});

test('never throws on arbitrary text', () => {
  const samples = [
    '{',
    '[[[',
    ': :',
    '- - -',
    '\t\t',
    'a: "unterminated',
    '&a *b',
    '%YAML 9.9\n---\n',
    '? [a]\n: b',
    'stages: !!binary abc',
    '\u0000\u0001',
    'stages:\n  - stage_id: 0\n    x: *nowhere\n',
  ];
  let seed = 7;
  for (let i = 0; i < 200; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const base = 'stages:\n  - stage_id: 0\n    max_num_seqs: 4\n    output_connectors: {to_stage_1: c}\n';
    const cut = seed % base.length;
    samples.push(base.slice(0, cut) + ':{[&*-\t"'[seed % 9] + base.slice(cut));
  }
  for (const text of samples) {
    assert.doesNotThrow(() => deployDiagnostics(analyzeVirtual({ 'f.yaml': text }, 'f.yaml')), text);
  }
});

test('YAML 1.1 booleans (PyYAML): on/off/yes/no', () => {
  const file = parseDeployFile('/x/b.yaml', 'async_chunk: off\ncuda_mps: yes\n');
  assert.deepEqual(toPlain(file.root!), { async_chunk: false, cuda_mps: true });
});

test('a 5,000-line config parses and checks', () => {
  const lines = ['model_runner: v2', 'stages:'];
  let id = 0;
  while (lines.length < 4995)
    lines.push(
      `  - stage_id: ${id++}`,
      '    # tuned',
      '    max_num_seqs: 64',
      '    devices: "0"',
      '    enable_prefix_caching: false',
    );
  lines.push('  - stage_id: 0');
  const text = `${lines.join('\n')}\n`;
  assert.equal(text.split('\n').length - 1, lines.length);
  const found = deployDiagnostics(analyzeVirtual({ 'big.yaml': text }, 'big.yaml'));
  assert.deepEqual(summary(found), [`duplicate-stage-id@${lines.length}`]);
});
