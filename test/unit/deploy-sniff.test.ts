// mayBeDeployConfig: the extension's cheap look at a YAML file before it starts the language
// server. It must accept every text the server recognises as a deploy config (else a deploy
// YAML would get no hints), and turn down the YAML files people have open otherwise.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import { mayBeDeployConfig } from '../../server/core/deploy/mayBeDeployConfig';
import { analyzeVirtual, FIXTURES, fixtureText } from './support/deployHelpers';

const recognised = (text: string): boolean =>
  analyzeVirtual({ 'x.yaml': text, 'base.yaml': fixtureText('qwen3_tts.yaml') }, 'x.yaml').isDeployConfig;

describe('mayBeDeployConfig', () => {
  test('accepts every deploy fixture', () => {
    const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.yaml'));
    assert.ok(files.length >= 5);
    for (const f of files) {
      const text = fixtureText(f);
      assert.equal(recognised(text), true, `${f} is a deploy config`);
      assert.equal(mayBeDeployConfig(text), true, f);
    }
  });

  test('accepts what the server recognises, in flow style, quoted, as an overlay', () => {
    const variants = [
      'stages:\n  - stage_id: 0\n',
      '{stages: [{stage_id: 0, engine_args: {}}]}\n',
      '"stages":\n  - "stage_id": 1\n',
      "'stages': [ { 'stage_id': 2 } ]\n",
      'base_config: base.yaml\nstages:\n  - stage_id: 1\n',
      'base_config: base.yaml\n',
      '# a comment\n---\nstages:\n- stage_id: 0\n  runtime: {}\n',
    ];
    for (const text of variants) {
      assert.equal(recognised(text), true, `recognised: ${JSON.stringify(text)}`);
      assert.equal(mayBeDeployConfig(text), true, JSON.stringify(text));
    }
  });

  test('turns down other YAML files', () => {
    const others = [
      'services:\n  web:\n    image: nginx\n    ports: ["80:80"]\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  replicas: 2\n',
      'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n',
      'stages:\n  - build\n  - test\n', // GitLab CI: stages without stage_id
      'stage_ids: [0, 1]\nmy_stages: 2\n', // the words only as parts of other words
    ];
    for (const text of others) {
      assert.equal(recognised(text), false, `not a deploy config: ${JSON.stringify(text)}`);
      assert.equal(mayBeDeployConfig(text), false, JSON.stringify(text));
    }
  });
});
