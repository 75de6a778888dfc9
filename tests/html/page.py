"""Reading the HTML report back (forge's output, or the DOM Chromium laid out)
and holding its figures to the eval.json files it was made from."""

import html.parser
import json
import math
import os
import statistics


class Card:
    def __init__(self, attrs):
        self.attrs = attrs
        self.workloads = []      # each row's data- attributes
        self.between_runs = None
        self.run_history = None  # section.run-history's data- attributes
        self.kept_runs = []      # each tr.kept-run's
        self.text = {}           # class of a figure -> its shown text, e.g. "ratio" -> "0.800"
        self.all_text = ""       # every text in the card, its notes included


class _Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards = []
        self.changes = []        # each tr.card-change and tr.workload-change (the comparison's rows), in order
        self._figure = None      # the class of the <dd> being read
        self._depth = 0          # <article> nesting while inside a card

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "article" and "card" in classes:
            self.cards.append(Card(attrs))
        elif tag == "tr" and ("card-change" in classes or "workload-change" in classes):
            self.changes.append(attrs)
        elif self.cards and tag == "section" and "run-history" in classes:
            self.cards[-1].run_history = attrs
        elif self.cards and tag == "tr" and "kept-run" in classes:
            self.cards[-1].kept_runs.append(attrs)
        elif self.cards and tag == "tr" and "workload" in classes:
            self.cards[-1].workloads.append(attrs)
        elif self.cards and tag == "section" and "between-runs" in classes:
            self.cards[-1].between_runs = attrs
        elif self.cards and tag == "dd" and classes:
            self._figure = classes[0]

    def handle_endtag(self, tag):
        if tag == "dd":
            self._figure = None

    def handle_data(self, data):
        if self.cards:
            self.cards[-1].all_text += data
        if self._figure:
            card = self.cards[-1]
            card.text[self._figure] = card.text.get(self._figure, "") + data


def read_cards(page):
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.cards


def read_changes(page):
    """The comparison's rows (forge compare's page, or forge report --compare-with's section)."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.changes


# forge/stats/ratio_change.hpp: the 95% quantile and the floor on the spread between runs.
Z95 = statistics.NormalDist().inv_cdf(0.975)
LOG_SD_FLOOR = 0.03


def _run_reading(item):
    """(ratio, within-run interval, between-runs log_sd) of a card's performance block or a workload, as
    `forge compare` reads them: between_runs.within_run_ci over ratio_ci. None without an interval."""
    between = item.get("between_runs") or {}
    ci = between.get("within_run_ci") or item.get("ratio_ci")
    if item.get("ratio") is None or not ci:
        return None
    return item["ratio"], ci, between.get("log_sd")


def expected_change(old, new):
    """(change, low, high) from two readings, worked out here from the evals' numbers as
    docs/reference/cli.md states the interval: exp(log change +- z sqrt(se_old^2 + se_new^2 + 2 tau^2))."""
    (old_ratio, old_ci, old_sd), (new_ratio, new_ci, new_sd) = old, new
    se = [math.log(ci[1] / ci[0]) / (2 * Z95) for ci in (old_ci, new_ci)]
    tau = max([LOG_SD_FLOOR] + [sd for sd in (old_sd, new_sd) if sd is not None])
    half = Z95 * math.sqrt(se[0] ** 2 + se[1] ** 2 + 2 * tau ** 2)
    log_change = math.log(new_ratio) - math.log(old_ratio)
    return new_ratio / old_ratio, math.exp(log_change - half), math.exp(log_change + half)


def _close(problems, where, shown, expected, rel=1e-12):
    if shown is None or not math.isclose(float(shown), expected, rel_tol=rel, abs_tol=0.0):
        problems.append("%s: shows %s, expected %r" % (where, shown, expected))


def check_changes(rows, old_paths, new_paths):
    """Problems between the comparison's rows and the two runs' evals: every card of either run has a row
    (compared, added or removed), each compared card's and workload's change and interval as worked out
    from both evals' numbers, a workload of one run alone named as such. Returns (problems, rows checked)."""
    def load(paths):
        out = {}
        for path in paths:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            out[data.get("operator", path)] = data
        return out
    old_run, new_run = load(old_paths), load(new_paths)
    problems, checked = [], 0
    cards = {row.get("data-name"): row for row in rows if "data-card" not in row}
    workloads = {(row.get("data-card"), row.get("data-name")): row for row in rows if "data-card" in row}
    for name in sorted(set(old_run) | set(new_run)):
        row = cards.get(name)
        if row is None:
            problems.append("no comparison row for card %r" % name)
            continue
        checked += 1
        if name not in old_run or name not in new_run:
            want = "added" if name not in old_run else "removed"
            if row.get("data-verdict") != want:
                problems.append("card %r: data-verdict %r, expected %r" % (name, row.get("data-verdict"), want))
            continue
        old, new = old_run[name], new_run[name]
        if old.get("skipped") or new.get("skipped"):
            continue
        old_perf, new_perf = old.get("performance") or {}, new.get("performance") or {}
        old_reading, new_reading = _run_reading(old_perf), _run_reading(new_perf)
        if old_reading and new_reading:
            change, low, high = expected_change(old_reading, new_reading)
            _close(problems, "card %r data-change" % name, row.get("data-change"), change, rel=0.0)
            _close(problems, "card %r data-change-low" % name, row.get("data-change-low"), low)
            _close(problems, "card %r data-change-high" % name, row.get("data-change-high"), high)
        old_w = {w.get("name"): w for w in old_perf.get("workloads") or []}
        new_w = {w.get("name"): w for w in new_perf.get("workloads") or []}
        for workload in sorted(set(old_w) | set(new_w)):
            at = "card %r workload %r" % (name, workload)
            wrow = workloads.get((name, workload))
            if wrow is None:
                problems.append("%s: no row" % at)
                continue
            checked += 1
            if workload not in old_w or workload not in new_w:
                want = "added" if workload not in old_w else "removed"
                if wrow.get("data-verdict") != want:
                    problems.append("%s: data-verdict %r, expected %r" % (at, wrow.get("data-verdict"), want))
                continue
            before, after = _run_reading(old_w[workload]), _run_reading(new_w[workload])
            if not (before and after):
                continue
            change, low, high = expected_change(before, after)
            _close(problems, at + " data-change", wrow.get("data-change"), change, rel=0.0)
            _close(problems, at + " data-change-low", wrow.get("data-change-low"), low)
            _close(problems, at + " data-change-high", wrow.get("data-change-high"), high)
            verdict = "improved" if low > 1 else "regressed" if high < 1 else "unchanged"
            if wrow.get("data-verdict") != verdict:
                problems.append("%s: data-verdict %r, expected %r" % (at, wrow.get("data-verdict"), verdict))
    return problems, checked


def check_run_history(card, history_path):
    """Problems between a card's chart of kept runs and the history file: the bench's history that ends in
    the card's ratio, each run's ratio exp(log_ratio) and interval exp(log_ratio +- z se), run order, this
    run marked last."""
    with open(history_path, encoding="utf-8") as f:
        data = json.load(f)
    ratio = float(card.attrs["data-ratio"])
    histories = [b["runs"] for b in data["benches"]] if data.get("schema") == 2 else [data["runs"]]
    runs = next((h for h in reversed(histories) if h and math.isclose(h[-1]["run"]["log_ratio"], math.log(ratio),
                                                                       rel_tol=1e-12, abs_tol=1e-12)), None)
    where = "card %r run history" % card.attrs.get("data-operator")
    if runs is None:
        return ["%s: the test's history holds no runs ending in the card's ratio" % where]
    problems = []
    if card.run_history is None:
        return ["%s: no section.run-history for %s" % (where, history_path)]
    if card.run_history.get("data-file") != history_path:
        problems.append("%s: data-file %r" % (where, card.run_history.get("data-file")))
    if card.run_history.get("data-runs") != str(len(runs)) or len(card.kept_runs) != len(runs):
        return problems + ["%s: %s runs, %d rows, for the file's %d" %
                           (where, card.run_history.get("data-runs"), len(card.kept_runs), len(runs))]
    for i, (row, run) in enumerate(zip(card.kept_runs, runs)):
        at = "%s run %d" % (where, i + 1)
        log_ratio, se = run["run"]["log_ratio"], run["run"]["standard_error"]
        if row.get("data-run") != str(i + 1):
            problems.append("%s: data-run %r" % (at, row.get("data-run")))
        _close(problems, at + " data-ratio", row.get("data-ratio"), math.exp(log_ratio))
        _close(problems, at + " data-ratio-low", row.get("data-ratio-low"), math.exp(log_ratio - Z95 * se))
        _close(problems, at + " data-ratio-high", row.get("data-ratio-high"), math.exp(log_ratio + Z95 * se))
        want_current = "true" if i + 1 == len(runs) else "false"
        if row.get("data-current") != want_current:
            problems.append("%s: data-current %r" % (at, row.get("data-current")))
    return problems


def _same(problems, where, shown, expected):
    """A data- attribute read back as the eval's number exactly (both absent is fine)."""
    if expected is None:
        if shown is not None:
            problems.append("%s: shows %s where the eval has none" % (where, shown))
        return
    if shown is None or not math.isclose(float(shown), float(expected), rel_tol=0.0, abs_tol=0.0):
        problems.append("%s: shows %s, the eval has %r" % (where, shown, expected))


def check_numbers(cards, eval_paths, credited):
    """Problems (empty: none) between the cards and the evals, in order.
    `credited` holds each operator's credited ratio as `forge report --format json` gives it."""
    problems = []
    if len(cards) != len(eval_paths):
        return ["%d cards for %d evals" % (len(cards), len(eval_paths))]
    for index, (card, path) in enumerate(zip(cards, eval_paths)):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        name = data.get("operator", path)
        where = "card %d (%s)" % (index, name)
        if card.attrs.get("data-operator") != name:
            problems.append("%s: data-operator is %r" % (where, card.attrs.get("data-operator")))
        perf = data.get("performance") or {}
        ci = perf.get("ratio_ci") or [None, None]
        for attribute, expected in (("data-ratio", perf.get("ratio")), ("data-ratio-low", ci[0]),
                                    ("data-ratio-high", ci[1]), ("data-reference-ms", perf.get("reference_ms")),
                                    ("data-student-ms", perf.get("student_ms")),
                                    ("data-credited-ratio", credited[index])):
            _same(problems, "%s %s" % (where, attribute), card.attrs.get(attribute), expected)
        if card.attrs.get("data-verdict") != perf.get("verdict"):
            problems.append("%s: data-verdict %r, the eval has %r" % (where, card.attrs.get("data-verdict"),
                                                                     perf.get("verdict")))
        # What a reader sees: the same figures as the text report rounds them.
        if perf.get("ratio") is not None and card.text.get("ratio") != "%.3f" % perf["ratio"]:
            problems.append("%s: shows ratio %r for %r" % (where, card.text.get("ratio"), perf["ratio"]))
        if perf.get("reference_ms") is not None and card.text.get("reference-ms") != "%.4f" % perf["reference_ms"]:
            problems.append("%s: shows reference ms %r" % (where, card.text.get("reference-ms")))
        workloads = perf.get("workloads") or []
        if len(card.workloads) != len(workloads):
            problems.append("%s: %d workload rows for %d workloads" % (where, len(card.workloads), len(workloads)))
            continue
        for row, workload in zip(card.workloads, workloads):
            at = "%s workload %s" % (where, workload.get("name"))
            if row.get("data-name") != workload.get("name"):
                problems.append("%s: data-name %r" % (at, row.get("data-name")))
            wci = workload.get("ratio_ci") or [None, None]
            for attribute, expected in (("data-ratio", workload.get("ratio")), ("data-ratio-low", wci[0]),
                                        ("data-ratio-high", wci[1]),
                                        ("data-reference-ms", workload.get("reference_ms")),
                                        ("data-student-ms", workload.get("student_ms"))):
                _same(problems, "%s %s" % (at, attribute), row.get(attribute), expected)
        between = perf.get("between_runs")
        if between and card.between_runs is None:
            problems.append("%s: no between-runs section for the eval's between_runs" % where)
        elif between:
            _same(problems, where + " data-runs", card.between_runs.get("data-runs"), between["runs"])
            _same(problems, where + " data-log-sd", card.between_runs.get("data-log-sd"), between["log_sd"])
            _same(problems, where + " data-within-run-low", card.between_runs.get("data-within-run-low"),
                  between["within_run_ci"][0])
            _same(problems, where + " data-within-run-high", card.between_runs.get("data-within-run-high"),
                  between["within_run_ci"][1])
        elif card.between_runs is not None:
            problems.append("%s: a between-runs section the eval has no data for" % where)
    return problems


def credited_ratios(summary_json):
    """Each operator's credited ratio from `forge report --format json`."""
    return [operator["credited_ratio"] for operator in json.loads(summary_json)["operators"]]


def data_dir(source_dir):
    return os.path.join(source_dir, "tests", "data", "cli")
