// A log piece whose [Overall Summary] table is cut off after its first four lines (its
// header), then another line: each read of it is one problem at a known line, which is what
// the line-number tests after a truncation or rotation count. PREFIX: the log prefix of its lines.
export const PREFIX = '(APIServer pid=5151) DEBUG 10-19 07:12:10 [vllm_omni/metrics/stats.py:961] ';

export const CUT_OFF_SUMMARY =
  [
    '[Overall Summary]',
    '+-----------------------------+---------+',
    '| Field                       |   Value |',
    '+-----------------------------+---------+',
  ]
    .map((l) => PREFIX + l)
    .join('\n') + '\n(APIServer pid=5151) INFO 10-19 07:12:11 [api_server.py:1] next\n';
