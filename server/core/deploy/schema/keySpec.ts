// The shape of the deploy-key schema: per key its accepted value kinds, default, what it
// does, and what it means for the latency metrics Stage Lens shows.

export type ValueKind = 'boolean' | 'integer' | 'number' | 'string' | 'map' | 'list';

export interface KeySpec {
  readonly key: string;
  /** Accepted kinds. `null` (unset) is accepted for every key that is not required. */
  readonly kinds: readonly ValueKind[];
  /** For string settings with a closed set of values. */
  readonly values?: readonly string[];
  readonly minimum?: number;
  /** The value must be above this (a fraction that cannot be 0). */
  readonly exclusiveMinimum?: number;
  readonly maximum?: number;
  readonly required?: boolean;
  /** As it reads in the hover: `true`, `1`, `unset (vLLM default)`. */
  readonly defaultText: string;
  readonly description: string;
  /** What the setting means for the metrics (markdown). */
  readonly metrics: string;
  /** Schema of the value when it is a map. */
  readonly children?: MapSchema;
  /** Schema of each item when the value is a list of maps. */
  readonly items?: MapSchema;
}

/**
 * How keys that are not in the schema are treated:
 *  warn       vLLM-Omni ignores or rejects them: always a warning
 *  typo-only  they are passed through (engine args, connector extras): a warning only when
 *             a known key is a likely correction, since new upstream keys must not be flagged
 *  accept     free-form contents (env, sampling params, compilation config)
 */
export type UnknownKeyPolicy = 'warn' | 'typo-only' | 'accept';

export interface KeyPattern {
  readonly pattern: RegExp;
  /** The spec of a key that matches (a pattern's key names a stage: its text names that stage). */
  readonly spec: (name: string) => KeySpec;
}

export interface MapSchema {
  /** Where this map is, for messages: `top level`, `stage`, `connector extra`. */
  readonly name: string;
  readonly keys: ReadonlyMap<string, KeySpec>;
  readonly patterns?: readonly KeyPattern[];
  /** Spec for every key when the keys are names (connector names). */
  readonly anyKey?: KeySpec;
  readonly unknownKeys: UnknownKeyPolicy;
}

export function keyTable(specs: readonly KeySpec[]): ReadonlyMap<string, KeySpec> {
  return new Map(specs.map((spec) => [spec.key, spec]));
}

/** Builds a spec; the positional form keeps the long tables readable. */
export function key(
  name: string,
  kinds: ValueKind | readonly ValueKind[],
  defaultText: string,
  description: string,
  metrics: string,
  more: Partial<
    Pick<KeySpec, 'values' | 'minimum' | 'exclusiveMinimum' | 'maximum' | 'required' | 'children' | 'items'>
  > = {},
): KeySpec {
  return { key: name, kinds: typeof kinds === 'string' ? [kinds] : kinds, defaultText, description, metrics, ...more };
}

export function lookupKey(schema: MapSchema, name: string): KeySpec | undefined {
  const known = schema.keys.get(name);
  if (known) return known;
  for (const { pattern, spec } of schema.patterns ?? []) if (pattern.test(name)) return spec(name);
  return schema.anyKey;
}

/** Shared metrics notes for settings that only change speed, not what a field means. */
export const METRICS = {
  engineSpeed:
    "Changes how fast this stage's engine runs, so it moves its `vllm_prefill_ms` / `vllm_decode_ms`; it does not change what any field measures.",
  none: 'No direct effect on the latency fields.',
  diffusion:
    'Diffusion stages never report the LLM split (all `None`); this shows in the diffusion timings (`diffusion_engine_exec_time_s`, `forward_time_s`, `vae_decode_time_s`, …), which overlap and must not be added together.',
  codecGraphs:
    'Sizes CUDA graphs of the Code2Wav decoder: a chunk shape without a graph runs eagerly or padded, so that codec step is slower (`vllm_decode_ms`, ITL); graph capture happens at start-up, not in a request.',
} as const;
