"""forge report --format html, read as text: the page is self-contained, text
from the evals is escaped, and every figure is the eval's.

usage: page_check.py FORGE SOURCE_DIR WORK_DIR"""

import os
import re
import subprocess
import sys

import fixtures
import page


def forge_report(forge, fmt, evals):
    done = subprocess.run([forge, "report", "--format", fmt, *evals], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        sys.exit("forge report --format %s exited %d:\n%s" % (fmt, done.returncode, done.stderr))
    return done.stdout


def main():
    forge, source_dir, work_dir = sys.argv[1:4]
    os.makedirs(work_dir, exist_ok=True)
    evals = fixtures.write_evals(page.data_dir(source_dir), work_dir)
    html = forge_report(forge, "html", evals)
    with open(os.path.join(work_dir, "report.html"), "w", encoding="utf-8") as f:
        f.write(html)
    problems = []

    # Self-contained: nothing fetched when the page is viewed, no script at all.
    for pattern, what in ((r"""(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//""", "a network address"),
                          (r"<script", "a script"), (r"@import|url\(", "a stylesheet fetch"),
                          (r"<(?:link|iframe|img|object|embed)\b", "an external resource element")):
        for match in re.finditer(pattern, html, re.IGNORECASE):
            problems.append("%s in the page: ...%s..." % (what, html[max(0, match.start() - 60):match.end() + 60]))
    if not html.startswith("<!DOCTYPE html>") or "</html>" not in html:
        problems.append("not a whole HTML document")

    # Escaped: the name and the notice appear as text, never as markup.
    for raw, escaped in ((fixtures.HOSTILE_NAME, "soft&lt;max&gt; &amp; &quot;fused&quot;"),
                         (fixtures.HOSTILE_NOTICE, "&lt;script&gt;alert(&#39;notice&#39;)&lt;/script&gt; &amp; "
                                                   "&lt;b&gt;bold&lt;/b&gt;")):
        if raw in html:
            problems.append("unescaped in the page: %r" % raw)
        if escaped not in html:
            problems.append("not in the page, escaped: %r" % escaped)

    cards = page.read_cards(html)
    credited = page.credited_ratios(forge_report(forge, "json", evals))
    problems += page.check_numbers(cards, evals, credited)
    if not any(card.attrs.get("data-credited-ratio") for card in cards):
        problems.append("no card shows a credited ratio: the priced contract was not held to the eval")
    # Each verdict its own shape and word: never colour alone.
    for word in ("faster", "slower", "indistinguishable"):
        if not re.search(r'<span class="verdict %s"><svg[^>]*>.*?</svg>%s</span>' % (word, word), html):
            problems.append("no %s badge with its mark and word" % word)

    # With --compare-with and the run histories: the section's numbers, the kept runs, the malformed history named.
    history = fixtures.write_histories(work_dir)
    old_dir, old_evals = fixtures.write_old_run(page.data_dir(source_dir), work_dir)
    compared = forge_report(forge, "html", ["--compare-with", old_dir, *evals])
    changes, checked = page.check_changes(page.read_changes(compared), old_evals, evals)
    problems += changes
    compared_cards = page.read_cards(compared)
    for card in compared_cards:
        if card.attrs.get("data-operator") == "rmsnorm_fwd":
            problems += page.check_run_history(card, history)
    if "gemm_bias_gelu.runs.json:1:" not in compared:
        problems.append("the malformed history is not named with its line in the page")
    if re.search(r"<script|https?://", compared):
        problems.append("the compared page is not self-contained")

    if problems:
        print("\n".join(problems))
        print("the page: %s" % os.path.join(work_dir, "report.html"))
        return 1
    print("%d cards, %d workload rows: self-contained, escaped, every figure the eval's; with --compare-with, "
          "%d comparison rows as both runs' evals give them" % (len(cards), sum(len(card.workloads) for card in cards),
                                                               checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
