// Import Log's progress text: the unit follows the file's size, so a small log does not read
// "0.0 of 0.0 MB".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importProgressText } from '../../src/importProgressText';

test('a 30 KB log reads in KB', () => {
  assert.equal(importProgressText(0, 30_720), '0.0 of 30 KB');
  assert.equal(importProgressText(12_288, 30_720), '12 of 30 KB');
  assert.equal(importProgressText(2_048, 4_096), '2.0 of 4.0 KB');
});

test('a log of a megabyte or more reads in MB; under a kilobyte, in bytes', () => {
  assert.equal(importProgressText(1_572_864, 4_718_592), '1.5 of 4.5 MB');
  assert.equal(importProgressText(52_428_800, 209_715_200), '50 of 200 MB');
  assert.equal(importProgressText(300, 800), '300 of 800 bytes');
});

test("the CLI's size rule: one decimal below 10 of a unit after rounding, the unit chosen on the rounded whole, GB past 1,024 MB", () => {
  assert.equal(importProgressText(10_200, 30_720), '10 of 30 KB');
  assert.equal(importProgressText(524_288, 1_048_500), '0.5 of 1.0 MB');
  assert.equal(importProgressText(1024 ** 3, 3 * 1024 ** 3), '1.0 of 3.0 GB');
  assert.equal(importProgressText(1_000, 1_023), '1,000 of 1,023 bytes');
});
