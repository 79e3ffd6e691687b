// A scrape with the inter-token latency under both of vLLM's names: vLLM registers the older
// name (vllm:time_per_output_token_seconds) first, its series a copy of the newer one's.

/** `text` with a copy of its vllm:inter_token_latency_seconds family, under the older name, before it. */
export function withOlderItlName(text: string): string {
  const at = text.indexOf('# TYPE vllm:inter_token_latency_seconds histogram');
  const end = text.indexOf('# TYPE', at + 1);
  const older = text
    .slice(at, end)
    .replaceAll('vllm:inter_token_latency_seconds', 'vllm:time_per_output_token_seconds');
  return text.slice(0, at) + older + text.slice(at);
}
