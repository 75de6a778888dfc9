"""Reading the HTML report back (forge's output, or the DOM Chromium laid out)
and holding its figures to the eval.json files it was made from."""

import html.parser
import json
import math
import os


class Card:
    def __init__(self, attrs):
        self.attrs = attrs
        self.workloads = []      # each row's data- attributes
        self.between_runs = None
        self.text = {}           # class of a figure -> its shown text, e.g. "ratio" -> "0.800"


class _Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards = []
        self._figure = None      # the class of the <dd> being read
        self._depth = 0          # <article> nesting while inside a card

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "article" and "card" in classes:
            self.cards.append(Card(attrs))
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
        if self._figure:
            card = self.cards[-1]
            card.text[self._figure] = card.text.get(self._figure, "") + data


def read_cards(page):
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.cards


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
