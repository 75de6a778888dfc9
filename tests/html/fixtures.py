"""The eval.json files the HTML report's tests render: the committed test data,
and variants of it that carry what the page shows beyond it (throughput, the
spread between runs, a priced contract, each verdict, text to escape)."""

import copy
import json
import math
import os


# Text from files that must reach the page escaped, never as markup.
HOSTILE_NAME = 'soft<max> & "fused"'
HOSTILE_NOTICE = "<script>alert('notice')</script> & <b>bold</b>"


def _read(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _write(out_dir, name, eval_json):
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(eval_json, f, indent=1)
    return path


def _throughput(gflops_ref, gflops_stu, gbps_ref, gbps_stu):
    return {"reference": {"gflops": gflops_ref, "gbps": gbps_ref, "peak_dram_bandwidth_fraction": None},
            "student": {"gflops": gflops_stu, "gbps": gbps_stu, "peak_dram_bandwidth_fraction": None}}


def _with_verdicts(paired, name, run, workloads):
    """`paired` with its run's and workloads' ratio, interval and verdict set."""
    out = copy.deepcopy(paired)
    out["operator"] = name
    perf = out["performance"]
    perf["ratio"], perf["ratio_ci"], perf["verdict"] = run
    for workload, (ratio, ci, verdict) in zip(perf["workloads"], workloads):
        workload["ratio"], workload["ratio_ci"], workload["verdict"] = ratio, ci, verdict
    return out


def rich_eval(data_dir, name=HOSTILE_NAME):
    """The paired eval with a priced contract, throughput, the spread between
    runs, notices and a name that must be escaped."""
    out = _read(os.path.join(data_dir, "layernorm_bwd-paired.eval.json"))
    out["operator"] = name
    out["contract"] = os.path.join(data_dir, "layernorm_bwd", "window.toml")
    out["notices"] = [HOSTILE_NOTICE, "workload m4096_n1024 missed its precision (time cap)"]
    perf = out["performance"]
    perf["throughput"] = _throughput(151.25, 121.0, 812.4, 649.92)
    perf["between_runs"] = {"runs": 4, "log_sd": 0.0123, "within_run_ci": [0.79, 0.815],
                            "reaches_earlier_runs": False,
                            "machine": {"memory_ms": 0.51, "earlier_memory_ms": 0.5, "busier": False}}
    for i, workload in enumerate(perf["workloads"]):
        workload["throughput"] = _throughput(150.0 + i, 120.0 + i, 810.0 + i, 648.0 + i)
        workload["between_runs"] = {"runs": 4, "log_sd": 0.01, "within_run_ci": workload["ratio_ci"],
                                    "reaches_earlier_runs": False}
    return out


def write_evals(data_dir, out_dir):
    """Writes the variants into out_dir; returns every eval path to report, in order."""
    paired = _read(os.path.join(data_dir, "layernorm_bwd-paired.eval.json"))
    faster = _with_verdicts(paired, "rmsnorm_fwd", (1.31, [1.22, 1.4], "faster"),
                            [(1.25, [1.2, 1.3], "faster"), (1.4, [1.3, 1.5], "faster"),
                             (1.29, [0.95, 1.6], "indistinguishable")])
    tie = _with_verdicts(paired, "gemm_bias_gelu", (1.01, [0.97, 1.05], "indistinguishable"),
                         [(0.99, [0.93, 1.04], "indistinguishable"), (1.02, [0.98, 1.07], "indistinguishable"),
                          (1.03, [1.01, 1.06], "faster")])
    return [
        _write(out_dir, "rich.eval.json", rich_eval(data_dir)),
        _write(out_dir, "faster.eval.json", faster),
        _write(out_dir, "tie.eval.json", tie),
        os.path.join(data_dir, "layernorm_bwd.eval.json"),
        os.path.join(data_dir, "flagged.eval.json"),
        os.path.join(data_dir, "skipped.eval.json"),
    ]


# The run history beside faster.eval.json (operator rmsnorm_fwd): another bench
# build's history, then this one's, whose last run is the eval's ratio (1.31).
HISTORY_RATIOS = [(1.18, 0.02), (1.27, 0.015), (1.22, 0.03), (1.31, 0.016)]
# A history beside tie.eval.json (gemm_bias_gelu) that is not one: a note names it.
MALFORMED_HISTORY = '{"schema": 2, "benches": [{"bench": "b", "runs": [{"run": {"log_ratio": "fast"}}]}]}'


def write_histories(out_dir):
    """The run histories beside the evals write_evals wrote; returns the path of the good one."""
    def kept(ratio, se):
        return {"run": {"log_ratio": math.log(ratio), "standard_error": se}, "workloads": {}}
    good = os.path.join(out_dir, "rmsnorm_fwd.runs.json")
    with open(good, "w", encoding="utf-8") as f:
        json.dump({"schema": 2, "benches": [
            {"bench": "another build", "runs": [kept(0.7, 0.01), kept(1.31 * 1.5, 0.01)]},
            {"bench": "this build", "runs": [kept(r, se) for r, se in HISTORY_RATIOS]}]}, f, indent=1)
    with open(os.path.join(out_dir, "gemm_bias_gelu.runs.json"), "w", encoding="utf-8") as f:
        f.write(MALFORMED_HISTORY)
    return good


def write_old_run(data_dir, out_dir):
    """An earlier run (OLD) for forge report --compare-with, in out_dir/old: the rich card slower than now,
    rmsnorm_fwd faster than now with a workload renamed since (one workload in each run alone), a card
    retired since; gemm_bias_gelu and the committed evals are new. Returns the directory and its evals."""
    paired = _read(os.path.join(data_dir, "layernorm_bwd-paired.eval.json"))
    old_dir = os.path.join(out_dir, "old")
    os.makedirs(old_dir, exist_ok=True)
    rich = rich_eval(data_dir)
    perf = rich["performance"]
    perf["ratio"], perf["ratio_ci"] = 0.74, [0.72, 0.765]
    perf["between_runs"]["within_run_ci"] = [0.73, 0.75]
    for workload in perf["workloads"]:
        workload["ratio"] = workload["ratio"] * 0.93
    faster = _with_verdicts(paired, "rmsnorm_fwd", (1.45, [1.4, 1.5], "faster"),
                            [(1.5, [1.45, 1.55], "faster"), (1.42, [1.33, 1.5], "faster"),
                             (1.2, [0.9, 1.6], "indistinguishable")])
    faster["performance"]["workloads"][2]["name"] = "m2048_retired"
    retired = _with_verdicts(paired, "retired_op", (1.0, [0.98, 1.02], "indistinguishable"),
                             [(1.0, [0.98, 1.02], "indistinguishable")] * 3)
    evals = [_write(old_dir, "rich.eval.json", rich), _write(old_dir, "faster.eval.json", faster),
             _write(old_dir, "retired.eval.json", retired)]
    return old_dir, evals


def write_many(data_dir, out_dir, count):
    """`count` copies of the rich eval, each with its own operator name."""
    return [_write(out_dir, "op%03d.eval.json" % i, rich_eval(data_dir, "op_%03d <&> %s" % (i, HOSTILE_NAME)))
            for i in range(count)]
