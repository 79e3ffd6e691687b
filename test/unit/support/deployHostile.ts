// Deploy YAMLs built to exhaust a reader: alias bombs (a few hundred bytes that stand for
// billions of values), thousands of aliases, nesting thousands of levels deep. Shared by
// the unit fuzz tests and the language-server tests.

/** `a1: &a1 [x, …]`, `a2: &a2 [*a1, …]`, …, `levels` levels of `width`, used as a stage value. */
export function aliasBomb(levels: number, width: number, use = 'max_num_seqs'): string {
  const lines = [`a1: &a1 [${Array(width).fill('x').join(', ')}]`];
  for (let level = 2; level <= levels; level++)
    lines.push(
      `a${level}: &a${level} [${Array(width)
        .fill(`*a${level - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\nstages:\n  - stage_id: 0\n    ${use}: *a${levels}\n`;
}

/** The same with maps, as a stage's `engine_extras` (which overlays merge deeply). */
export function mapAliasBomb(levels: number, width: number): string {
  const keys = (value: string) => `{${Array.from({ length: width }, (_, i) => `k${i}: ${value}`).join(', ')}}`;
  const lines = [`m1: &m1 ${keys('x')}`];
  for (let level = 2; level <= levels; level++) lines.push(`m${level}: &m${level} ${keys(`*m${level - 1}`)}`);
  return `${lines.join('\n')}\nstages:\n  - stage_id: 0\n    engine_extras: *m${levels}\n`;
}

/** `count` stages, each merging one anchored map (`<<: *engine`): `count` aliases. */
export function manyAliases(count: number): string {
  const stages = Array.from({ length: count }, (_, i) => `  - stage_id: ${i}\n    <<: *engine\n    max_num_seqs: 4\n`);
  return `engine: &engine {enforce_eager: true, gpu_memory_utilization: 0.5}\nstages:\n${stages.join('')}`;
}

/** `depth` levels of flow nesting in the value of `key` of a stage. */
export function deepFlow(depth: number, open = '[', close = ']'): string {
  return `stages:\n  - stage_id: 0\n    x: ${open.repeat(depth)}${close.repeat(depth)}\n`;
}
