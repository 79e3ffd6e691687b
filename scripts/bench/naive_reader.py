#!/usr/bin/env python3
"""The peer of the cold benchmark (scripts/bench/cold.ts): a naive Python reader of a
vLLM-Omni --log-stats log, as someone would write it in an afternoon. A regular expression
per line (colour codes, the log prefix, then table titles, rows and [OmniTiming]); the same
tables Stage Lens reads (StageRequestStats per stage, RequestE2EStats, TransferEdgeStats,
[OmniTiming], boot lines); per request and stage the fields (a number, None as null, a blank
cell as "") and the phase split, then per stage p50/p90/p99 of each split value, the
stage's generation time and time to first output (numpy's linear percentiles, measured
values only). Writes JSON with json.dump, without whitespace, as `stage-lens analyze --format
json` writes its own. The bench checks that every request's stage fields equal Stage Lens's.

Usage: python3 naive_reader.py <log> > out.json
"""
import json
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PREFIX = re.compile(
    r"^(?:\((?P<proc>[^)]*)\) )?(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) "
    r"(?P<ts>\d\d-\d\d \d\d:\d\d:\d\d) \[(?P<file>[^\]]+):(?P<line>\d+)\] ?(?P<msg>.*)$"
)
TITLE = re.compile(r"^\[(?P<kind>StageRequestStats|RequestE2EStats|TransferEdgeStats) \[request_id=(?P<rid>[^\]]+)\]\]\s*$")
OVERALL = re.compile(r"^\[Overall Summary\]\s*$")
BORDER = re.compile(r"^\+[-+]+\+\s*$")
ROW = re.compile(r"^\|(?P<cells>.*)\|\s*$")
OMNI = re.compile(r"^\[OmniTiming\] req=(?P<rid>\S+) total=(?P<total>[\d.]+)s.*? stages=\[(?P<stages>[^\]]*)\]")
OMNI_STAGE = re.compile(r"(\d+):(?:\w+=)?([\d.]+)s")
BOOT = re.compile(r"vLLM API server version")
NUMBER = re.compile(r"^-?[\d,]*\.?\d+(?:[eE][-+]?\d+)?$")
LIST_CELL = re.compile(r"^(?P<mean>-?[\d,]*\.?\d+) \(n=(?P<n>\d+)\)$")

SPLIT = {
    "queuedMs": "vllm_queued_ms",
    "inputWaitMs": "vllm_input_wait_ms",
    "readyQueuedMs": "vllm_ready_queued_ms",
    "prefillMs": "vllm_prefill_ms",
    "decodeMs": "vllm_decode_ms",
    "ttftMs": "vllm_ttft_ms",
}
SUMMARY_FIELDS = list(SPLIT.values()) + ["stage_gen_time_ms", "serving_time_to_first_output_ms"]


def cell_value(text):
    text = text.strip()
    if text == "None":
        return None
    m = LIST_CELL.match(text)
    if m:
        text = m.group("mean")
    if NUMBER.match(text):
        v = float(text.replace(",", ""))
        return int(v) if v.is_integer() and "." not in text else v
    return text


def percentile(sorted_values, p):
    h = (len(sorted_values) - 1) * p / 100
    lo = int(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def main(path):
    requests = {}
    boot = 0
    boot_has_request = False
    open_tables = {}  # process -> [kind, request id, header cells, rows, borders seen]

    def request(rid):
        nonlocal boot_has_request
        r = requests.get(rid)
        if r is None:
            r = {"requestId": rid, "boot": boot, "cold": boot > 0 and not boot_has_request, "stages": {}, "e2e": {}, "transfers": {}, "omniTiming": None}
            boot_has_request = True
            requests[rid] = r
        return r

    def close(proc):
        table = open_tables.pop(proc, None)
        if table is None or table[0] is None:
            return
        kind, rid, header, rows, _ = table
        r = request(rid)
        columns = [{} for _ in header]
        for name, cells in rows:
            for i, text in enumerate(cells[: len(header)]):
                columns[i][name] = cell_value(text)
        if kind == "RequestE2EStats":
            r["e2e"].update(columns[0] if columns else {})
        elif kind == "StageRequestStats":
            for key, fields in zip(header, columns):
                split = {name: (fields.get(field) if isinstance(fields.get(field), (int, float)) else None) for name, field in SPLIT.items()}
                r["stages"][key] = {"fields": fields, "split": split}
        else:
            for key, fields in zip(header, columns):
                r["transfers"][key] = {"fields": fields}

    with open(path, "r", encoding="utf-8", errors="replace", newline="") as f:
        for raw in f:
            line = ANSI.sub("", raw).rstrip("\r\n")
            m = PREFIX.match(line)
            if m is None:
                continue
            proc, msg = m.group("proc"), m.group("msg").rstrip("\r")
            table = open_tables.get(proc)
            if table is not None:
                if BORDER.match(msg):
                    table[4] += 1
                    if table[4] == 3:
                        close(proc)
                    continue
                row = ROW.match(msg)
                if row:
                    cells = [c.strip() for c in row.group("cells").split("|")]
                    if table[2] is None:
                        table[2] = cells[1:]
                    else:
                        table[3].append((cells[0], cells[1:]))
                    continue
            t = TITLE.match(msg)
            if t:
                close(proc)
                open_tables[proc] = [t.group("kind"), t.group("rid"), None, [], 0]
                continue
            if OVERALL.match(msg):
                close(proc)
                open_tables[proc] = [None, None, None, [], 0]
                continue
            o = OMNI.match(msg)
            if o:
                stages = {k: float(v) for k, v in OMNI_STAGE.findall(o.group("stages"))}
                request(o.group("rid"))["omniTiming"] = {"totalS": float(o.group("total")), "stages": stages}
                continue
            if BOOT.search(msg):
                boot += 1 if boot == 0 or boot_has_request else 0
                boot_has_request = False
    for proc in list(open_tables):
        close(proc)

    summary = {}
    for r in requests.values():
        for key, stage in r["stages"].items():
            per = summary.setdefault(key, {})
            for field in SUMMARY_FIELDS:
                v = stage["fields"].get(field)
                if isinstance(v, (int, float)):
                    per.setdefault(field, []).append(v)
    stage_summary = {}
    for key, per in summary.items():
        stage_summary[key] = {}
        for field, values in per.items():
            values.sort()
            stage_summary[key][field] = {
                "count": len(values),
                "p50": percentile(values, 50),
                "p90": percentile(values, 90),
                "p99": percentile(values, 99),
            }
    document = {"schema": "naive-1", "requests": list(requests.values()), "stageSummary": stage_summary}
    json.dump(document, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(sys.argv[1])
