// Realistic /metrics bodies of a 2-stage Qwen3-TTS deployment (stage 0 talker, stage 1
// codec), written the way prometheus_client prints them: float counts (`8.0`), `le`
// last, `_created` in separate gauge families after each histogram/counter.
// Observations behind the buckets (seconds) are listed where tests hand-compute from them.
//
// HEALTHY_SCRAPE: a build with the codec TTFT fix.
//   stage 0 TTFT: 0.031 0.035 0.042 0.05 0.055 0.07 0.09 0.3
//   stage 1 audio_ttfp_s: 0.12 0.13 0.15 0.2 0.22 0.3 0.45 1.3
//   e2e_request_latency_s: 1.2 1.5 1.7 2.1 2.4 3.3 4.2 8.0
// BUGGY_CODEC_SCRAPE: same deployment on a build without the fix (talker first audio):
//   stage 1 has no TTFT sample; 8 ITLs of ~8123 s (the engine's monotonic clock, measured
//   from a last-token time of 0); prefill -8120..-8127 s; decode 8124..8131 s.

export const HEALTHY_SCRAPE = `# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.0
vllm:num_requests_running{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 0.0
# HELP vllm:request_success_total Count of successfully processed requests.
# TYPE vllm:request_success_total counter
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="stop"} 8.0
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="length"} 0.0
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",finished_reason="stop"} 8.0
# HELP vllm:request_success_created Count of successfully processed requests.
# TYPE vllm:request_success_created gauge
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="stop"} 1784900000.25
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="length"} 1784900000.25
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",finished_reason="stop"} 1784900000.25
# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.001"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.005"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.01"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.02"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.04"} 2.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.06"} 5.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.08"} 6.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.1"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.25"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.75"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="80.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="160.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="640.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2560.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:time_to_first_token_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:time_to_first_token_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.673
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.001"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.005"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.01"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.02"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.04"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.06"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.08"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.25"} 3.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 6.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.75"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="80.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="160.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="640.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2560.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:time_to_first_token_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:time_to_first_token_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 3.38
# HELP vllm:time_to_first_token_seconds_created Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds_created gauge
vllm:time_to_first_token_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:time_to_first_token_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:inter_token_latency_seconds Histogram of inter-token latency in seconds.
# TYPE vllm:inter_token_latency_seconds histogram
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.01"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.025"} 70.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.05"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.075"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.1"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.15"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.2"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.4"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.75"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="80.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 80.0
vllm:inter_token_latency_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 80.0
vllm:inter_token_latency_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1.380000000000001
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.01"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.025"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.05"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.075"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 20.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.15"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.2"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.4"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.75"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7.5"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="80.0"} 30.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 30.0
vllm:inter_token_latency_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 30.0
vllm:inter_token_latency_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 2.800000000000001
# HELP vllm:inter_token_latency_seconds_created Histogram of inter-token latency in seconds.
# TYPE vllm:inter_token_latency_seconds_created gauge
vllm:inter_token_latency_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:inter_token_latency_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_prefill_time_seconds Histogram of time spent in PREFILL phase for request.
# TYPE vllm:request_prefill_time_seconds histogram
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_prefill_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_prefill_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.43000000000000005
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 6.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 7.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 7.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_prefill_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_prefill_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 2.66
# HELP vllm:request_prefill_time_seconds_created Histogram of time spent in PREFILL phase for request.
# TYPE vllm:request_prefill_time_seconds_created gauge
vllm:request_prefill_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_prefill_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_decode_time_seconds Histogram of time spent in DECODE phase for request.
# TYPE vllm:request_decode_time_seconds histogram
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 1.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 4.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 5.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 6.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 7.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_decode_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_decode_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 17.9
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 3.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 4.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 6.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 6.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 6.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_decode_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_decode_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 12.2
# HELP vllm:request_decode_time_seconds_created Histogram of time spent in DECODE phase for request.
# TYPE vllm:request_decode_time_seconds_created gauge
vllm:request_decode_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_decode_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_inference_time_seconds Histogram of time spent in RUNNING phase for request.
# TYPE vllm:request_inference_time_seconds histogram
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 1.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 4.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 5.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 6.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 7.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_inference_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_inference_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 18.33
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 1.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 3.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 5.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 6.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 6.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_inference_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_inference_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 14.86
# HELP vllm:request_inference_time_seconds_created Histogram of time spent in RUNNING phase for request.
# TYPE vllm:request_inference_time_seconds_created gauge
vllm:request_inference_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_inference_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm_omni:audio_ttfp_s Time from request arrival to first audio packet/frame, in seconds.
# TYPE vllm_omni:audio_ttfp_s histogram
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.05"} 0.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 0.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.25"} 5.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 7.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 7.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="300.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm_omni:audio_ttfp_s_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm_omni:audio_ttfp_s_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 2.87
# HELP vllm_omni:audio_ttfp_s_created Time from request arrival to first audio packet/frame, in seconds.
# TYPE vllm_omni:audio_ttfp_s_created gauge
vllm_omni:audio_ttfp_s_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm_omni:e2e_request_latency_s Pipeline-global end-to-end request latency in seconds (user arrival to complete response).
# TYPE vllm_omni:e2e_request_latency_s histogram
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.05"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.1"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.25"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.5"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="1.0"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="2.0"} 3.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="5.0"} 7.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="10.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="20.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="30.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="60.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="120.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="300.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="+Inf"} 8.0
vllm_omni:e2e_request_latency_s_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 8.0
vllm_omni:e2e_request_latency_s_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 24.4
# HELP vllm_omni:e2e_request_latency_s_created Pipeline-global end-to-end request latency in seconds (user arrival to complete response).
# TYPE vllm_omni:e2e_request_latency_s_created gauge
vllm_omni:e2e_request_latency_s_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 1784900000.25
# HELP vllm_omni:requests_success_total Total requests by completion reason (stop / length / abort / ...).
# TYPE vllm_omni:requests_success_total counter
vllm_omni:requests_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",finished_reason="stop"} 8.0
# HELP vllm_omni:requests_success_created Total requests by completion reason (stop / length / abort / ...).
# TYPE vllm_omni:requests_success_created gauge
vllm_omni:requests_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",finished_reason="stop"} 1784900000.25
# HELP vllm_omni:stage_waiting_requests Sum of the latest scheduler waiting snapshots across a stage's replicas.
# TYPE vllm_omni:stage_waiting_requests gauge
vllm_omni:stage_waiting_requests{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0"} 0.0
vllm_omni:stage_waiting_requests{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1"} 1.0
`;

export const BUGGY_CODEC_SCRAPE = `# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.0
vllm:num_requests_running{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 0.0
# HELP vllm:request_success_total Count of successfully processed requests.
# TYPE vllm:request_success_total counter
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="stop"} 8.0
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="length"} 0.0
vllm:request_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",finished_reason="stop"} 8.0
# HELP vllm:request_success_created Count of successfully processed requests.
# TYPE vllm:request_success_created gauge
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="stop"} 1784900000.25
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",finished_reason="length"} 1784900000.25
vllm:request_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",finished_reason="stop"} 1784900000.25
# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.001"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.005"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.01"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.02"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.04"} 2.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.06"} 5.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.08"} 6.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.1"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.25"} 7.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.75"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7.5"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="80.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="160.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="640.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2560.0"} 8.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:time_to_first_token_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:time_to_first_token_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.673
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.001"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.005"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.01"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.02"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.04"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.06"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.08"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.25"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.75"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7.5"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="80.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="160.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="640.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2560.0"} 0.0
vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 0.0
vllm:time_to_first_token_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 0.0
vllm:time_to_first_token_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 0.0
# HELP vllm:time_to_first_token_seconds_created Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds_created gauge
vllm:time_to_first_token_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:time_to_first_token_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:inter_token_latency_seconds Histogram of inter-token latency in seconds.
# TYPE vllm:inter_token_latency_seconds histogram
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.01"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.025"} 70.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.05"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.075"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.1"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.15"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.2"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.4"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.75"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7.5"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="80.0"} 80.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 80.0
vllm:inter_token_latency_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 80.0
vllm:inter_token_latency_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1.380000000000001
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.01"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.025"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.05"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.075"} 0.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 12.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.15"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.2"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.4"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.75"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7.5"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="80.0"} 22.0
vllm:inter_token_latency_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 30.0
vllm:inter_token_latency_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 30.0
vllm:inter_token_latency_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 65018.16
# HELP vllm:inter_token_latency_seconds_created Histogram of inter-token latency in seconds.
# TYPE vllm:inter_token_latency_seconds_created gauge
vllm:inter_token_latency_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:inter_token_latency_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_prefill_time_seconds Histogram of time spent in PREFILL phase for request.
# TYPE vllm:request_prefill_time_seconds histogram
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_prefill_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_prefill_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 0.43000000000000005
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 8.0
vllm:request_prefill_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_prefill_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_prefill_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} -64988.0
# HELP vllm:request_prefill_time_seconds_created Histogram of time spent in PREFILL phase for request.
# TYPE vllm:request_prefill_time_seconds_created gauge
vllm:request_prefill_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_prefill_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_decode_time_seconds Histogram of time spent in DECODE phase for request.
# TYPE vllm:request_decode_time_seconds histogram
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 1.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 4.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 5.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 6.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 7.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_decode_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_decode_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 17.9
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 0.0
vllm:request_decode_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_decode_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_decode_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 65020.0
# HELP vllm:request_decode_time_seconds_created Histogram of time spent in DECODE phase for request.
# TYPE vllm:request_decode_time_seconds_created gauge
vllm:request_decode_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_decode_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm:request_inference_time_seconds Histogram of time spent in RUNNING phase for request.
# TYPE vllm:request_inference_time_seconds histogram
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.3"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="0.8"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.0"} 1.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1.5"} 4.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.0"} 5.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="2.5"} 6.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"} 7.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="10.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="15.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="20.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="30.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="40.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="50.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="60.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="120.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="240.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="480.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="960.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="1920.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="7680.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="+Inf"} 8.0
vllm:request_inference_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 8.0
vllm:request_inference_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 18.33
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.3"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.8"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.5"} 0.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="15.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="40.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="50.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="240.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="480.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="960.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1920.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="7680.0"} 8.0
vllm:request_inference_time_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm:request_inference_time_seconds_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm:request_inference_time_seconds_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 32.0
# HELP vllm:request_inference_time_seconds_created Histogram of time spent in RUNNING phase for request.
# TYPE vllm:request_inference_time_seconds_created gauge
vllm:request_inference_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0"} 1784900000.25
vllm:request_inference_time_seconds_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm_omni:audio_ttfp_s Time from request arrival to first audio packet/frame, in seconds.
# TYPE vllm_omni:audio_ttfp_s histogram
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.05"} 0.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.1"} 0.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.25"} 5.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="0.5"} 7.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="1.0"} 7.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="2.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="5.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="10.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="20.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="30.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="60.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="120.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="300.0"} 8.0
vllm_omni:audio_ttfp_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0",le="+Inf"} 8.0
vllm_omni:audio_ttfp_s_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 8.0
vllm_omni:audio_ttfp_s_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 2.87
# HELP vllm_omni:audio_ttfp_s_created Time from request arrival to first audio packet/frame, in seconds.
# TYPE vllm_omni:audio_ttfp_s_created gauge
vllm_omni:audio_ttfp_s_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1",replica="0"} 1784900000.25
# HELP vllm_omni:e2e_request_latency_s Pipeline-global end-to-end request latency in seconds (user arrival to complete response).
# TYPE vllm_omni:e2e_request_latency_s histogram
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.05"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.1"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.25"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="0.5"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="1.0"} 0.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="2.0"} 3.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="5.0"} 7.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="10.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="20.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="30.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="60.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="120.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="300.0"} 8.0
vllm_omni:e2e_request_latency_s_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",le="+Inf"} 8.0
vllm_omni:e2e_request_latency_s_count{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 8.0
vllm_omni:e2e_request_latency_s_sum{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 24.4
# HELP vllm_omni:e2e_request_latency_s_created Pipeline-global end-to-end request latency in seconds (user arrival to complete response).
# TYPE vllm_omni:e2e_request_latency_s_created gauge
vllm_omni:e2e_request_latency_s_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"} 1784900000.25
# HELP vllm_omni:requests_success_total Total requests by completion reason (stop / length / abort / ...).
# TYPE vllm_omni:requests_success_total counter
vllm_omni:requests_success_total{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",finished_reason="stop"} 8.0
# HELP vllm_omni:requests_success_created Total requests by completion reason (stop / length / abort / ...).
# TYPE vllm_omni:requests_success_created gauge
vllm_omni:requests_success_created{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",finished_reason="stop"} 1784900000.25
# HELP vllm_omni:stage_waiting_requests Sum of the latest scheduler waiting snapshots across a stage's replicas.
# TYPE vllm_omni:stage_waiting_requests gauge
vllm_omni:stage_waiting_requests{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0"} 0.0
vllm_omni:stage_waiting_requests{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="1"} 1.0
`;
