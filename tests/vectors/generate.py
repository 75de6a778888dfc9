#!/usr/bin/env python3
"""Generate the committed differential test vectors for the C++ port.

    python3 tests/vectors/generate.py [REFERENCE_DIR] [--out DIR] [--check]

REFERENCE_DIR is the folder holding the original Python rules and run_oracle.py
(default: ../shared/reference relative to the repository). The script builds
varied inputs from a fixed seed, asks run_oracle.py for the Python oracle's answers,
turns each answer into codes and subjects (the stable codes, not the messages'
wording) and writes one JSON Lines file per operation:

    findings.jsonl  window.toml texts -> findings (code, severity, subject)
    prep.jsonl      contract + prep block -> prep problems (code, subject, workloads)
    credit.jsonl    contract + kernel tables + times -> credit and credited ratio

Every expectation is the oracle's answer, changed only where reference/README.md
documents a deliberate difference (each such case carries a "difference" note),
plus the `unknown-key` warnings the oracle does not know about.
The message -> code mapping is checked on every message: each one must match
exactly one pattern, and the subject it yields must name something the parsed
contract holds. --check regenerates in memory and fails when the committed files
differ (the vectors are reproducible from this script and the oracle alone).

Standard library only; deterministic for a given oracle.
"""
from __future__ import annotations

import argparse
import ast
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

SEED = 20250612
HERE = Path(__file__).resolve().parent
DEFAULT_REFERENCE = HERE.parent.parent.parent / "shared" / "reference"

KINDS = ("ref_input", "student_input", "ref_output", "student_output")
PAYER = {"ref_input": "student", "student_output": "student",
         "student_input": "reference", "ref_output": "reference"}
REGEX_KEY = {"student": "student_kernel_regex", "reference": "ref_kernel_regex"}
OTHER_SIDE = {"student": "reference", "reference": "student"}
ENTRY_STRING_KEYS = ("class", "produced_by", "derived_from", "student_kernel_regex",
                     "ref_kernel_regex", "note", "dtype")
FINDING_CODES = (
    "malformed", "contract-absent", "list-empty", "entry-duplicate", "entry-not-listed",
    "class-invalid", "output-symmetrize", "output-both-sides", "symmetrize-one-side",
    "input-both-sides", "produced-by-invalid", "prep-shape-missing", "prep-dtype-missing",
    "prep-decl-misplaced", "regex-wrong-side", "regex-not-price", "regex-invalid",
    "ref-input-undeclared", "student-input-undeclared", "ref-output-undeclared",
    "student-output-undeclared", "price-unpriced", "unknown-key")
PREP_CODES = ("prep-unreported", "prep-mutated", "prep-missing", "prep-shape", "prep-dtype",
              "prep-undeclared")
WHY_CODES = ("table-missing", "regex-unmatched", "coverage-out-of-band")


# --- the oracle ----------------------------------------------------------------

def ask_oracle(reference: Path, requests: list[dict]) -> list[dict]:
    """One run_oracle.py process answers every request, in order."""
    payload = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([sys.executable, str(reference / "run_oracle.py")], input=payload,
                          capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(answers) != len(requests):
        raise SystemExit(f"run_oracle.py gave {len(answers)} answers to {len(requests)} requests")
    for req, ans in zip(requests, answers):
        if "bad_request" in ans or "exception" in ans:
            raise SystemExit(f"the oracle could not answer {json.dumps(req)}: {json.dumps(ans)}")
    return answers


# --- TOML text -------------------------------------------------------------------

class Raw:
    """A value written into the TOML text verbatim (dates, broken syntax, ...)."""

    def __init__(self, text: str):
        self.text = text


def toml_string(s: str, rng: random.Random) -> str:
    literal_ok = all(c not in "'\n\r" and (ord(c) >= 0x20 or c == "\t") and ord(c) != 0x7f
                     for c in s)
    r = rng.random()
    if literal_ok and r < 0.25:
        return "'" + s + "'"
    if literal_ok and r < 0.27:
        return "'''\n" + s + "'''"  # the newline after the opening quotes is trimmed
    if r < 0.30:
        cut = s.find(" ")
        if 0 <= cut < len(s) - 1 and not s[cut + 1].isspace():
            # a line-ending backslash: the newline and the indentation after it vanish
            return '"""' + escape_basic(s[:cut + 1]) + '\\\n    ' + escape_basic(s[cut + 1:]) + '"""'
        return '"""' + escape_basic(s) + '"""'
    return '"' + escape_basic(s) + '"'


def escape_basic(s: str) -> str:
    out = []
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7f or (c.isspace() and ord(c) > 0x7f):
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return "".join(out)


def toml_key(k: str, rng: random.Random | None = None) -> str:
    if re.fullmatch(r"[A-Za-z0-9_-]+", k) and not (rng and rng.random() < 0.03):
        return k
    return json.dumps(k, ensure_ascii=False)


def toml_value(v, rng: random.Random) -> str:
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return toml_string(v, rng)
    if isinstance(v, list):
        sep = ", " if rng.random() < 0.8 else ","
        trailing = "," if v and rng.random() < 0.1 else ""
        return "[" + sep.join(toml_value(x, rng) for x in v) + trailing + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k, rng)} = {toml_value(x, rng)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def is_table(v) -> bool:
    return isinstance(v, dict)


def is_table_array(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def emit_toml(doc: dict, rng: random.Random) -> str:
    """Write a document; the layout of tables varies (sections, inline, dotted keys).
    Key/value lines (scalars, inline tables, dotted keys) come before the first
    section header, where TOML reads them as top-level keys."""
    head: list[str] = []
    sections: list[str] = []
    if rng.random() < 0.3:
        head.append("# window.toml: the timed-window contract")
    blocks: list[list[str]] = []
    pad = " " if rng.random() < 0.05 else ""
    for k, v in doc.items():
        style = rng.random()
        if is_table(v):
            if style < 0.15 and v:
                head.append(f"{toml_key(k, rng)} = {toml_value(v, rng)}")
            elif style < 0.25 and v and all(not is_table(x) for x in v.values()):
                head.extend(f"{toml_key(k)}.{toml_key(kk, rng)} = {toml_value(vv, rng)}"
                            for kk, vv in v.items())
            else:
                block = ["", f"[{pad}{toml_key(k, rng)}{pad}]"]
                block += [f"{toml_key(kk, rng)} = {toml_value(vv, rng)}" for kk, vv in v.items()]
                blocks.append(block)
        elif is_table_array(v):
            if style < 0.12:
                head.append(f"{toml_key(k)} = [")
                head += [f"  {toml_value(item, rng)}," for item in v]
                head.append("]")
            else:
                block = []
                for item in v:
                    comment = "  # keyed by exactly one kind" if rng.random() < 0.1 else ""
                    block += ["", f"[[{pad}{toml_key(k)}{pad}]]{comment}"]
                    block += [f"{toml_key(kk, rng)} = {toml_value(vv, rng)}" for kk, vv in item.items()]
                blocks.append(block)
        else:
            head.append(f"{toml_key(k, rng)} = {toml_value(v, rng)}")
    if rng.random() < 0.2:
        rng.shuffle(blocks)  # tables in any order: [[asymmetry]] before [reference], ...
    sections = [line for block in blocks for line in block]
    text = "\n".join(head + sections).lstrip("\n") + "\n"
    if rng.random() < 0.05:
        text = text.replace("\n", "\r\n")
    return text


# --- varied contracts ------------------------------------------------------------

TENSORS = ["q", "k", "v", "do", "A", "beta", "g", "g_cumsum", "lse", "mean", "rstd", "x", "w",
           "b", "dy", "weight", "bias", "scale", "cos", "sin", "mask", "idx", "offsets",
           "state", "h0", "gamma", "dt", "B", "C", "D", "logits", "labels", "probs", "z",
           "workspace", "x.grad", "dq-tile", "α", "out_0", "kv_cache", "it's", "sm_scale", "x\\y"]
OUTPUTS = ["dq", "dk", "dv", "dbeta", "dg", "dx", "dw", "db", "y", "out", "dA", "dh0", "loss",
           "lse_out", "dgamma", "dstate", "probs_out", "ddt", "dB", "dC", "grad_in"]
DTYPES = ["bf16", "fp32", "fp16", "torch.bfloat16", "float32", "half", "int64", "i32", "e4m3",
          "float8_e5m2", "BF16", " fp32 ", "bool", "u8", "complex64", "torch.float16"]
PRODUCERS = ["forward", "prep", "cache", "other"]
BAD_PRODUCERS = ["fwd", "Forward", "backward", "prep step", "cached", "autograd"]
BAD_CLASSES = ["Price", "symmetrise", "priced", "", "accepted", "SYMMETRIZE", "skip", "price,accept"]
# Valid in Python `re` and in Boost's Perl syntax alike.
VALID_REGEXES = ["k1_", "^triton_red", "solve|cumsum", "(?i)lse", r"\bgemm", r"chunk_\d+",
                 "fwd.*bwd", "^void cutlass", "[Ss]oftmax", "(?:dq|dk)_kernel", "a{2,3}",
                 r"reduce(?=_)", r"^(?!flash).*bwd", "norm$", r"\w+_fused_\w+", "x?y+z*",
                 r"(ab|cd)\1", "[^a-z]_kernel", r"\(anonymous namespace\)", "elementwise",
                 r"(?<=k)2_", "mean|rstd", "copy_kernel", "lazy.*?end", r"\.", r"\A k"]
# Python spellings the port translates to Boost's.
PYTHON_ONLY_REGEXES = ["(?P<step>chunk)_\\d", "(?P<n>x)(?P=n)", "(?P<pre>k1)_solve"]
# Invalid in both dialects.
INVALID_REGEXES = ["(", ")", "[", "[z-a]", "*", "+x", "?", "a{2,1}", "(?", "\\", "(ab", "ab)",
                   "[ab", "k1_(", "(?P<n>x", "a**b"]
# Where Python 3.11's `re` and Boost's Perl syntax part ways; the oracle's
# verdict (Python's) is the one to reach. Used for validity (findings) only.
DIALECT_REGEXES = [
    # refused by Python, accepted by Boost
    "a(?i)b", r"\p{L}", r"\e", "(?<n>x)", r"\G", "(?|a|b)", r"[a-\d]", r"\cA",
    # accepted by Python, refused by Boost
    r"(?a)\w", r"\N{EM DASH}",
    # accepted by both, read differently
    "{", "a{,3}", "[]a]", "(?x) k1 _", "(a)(?(1)b|c)", r"\Z", "(?s).", r"\u0041", "a++", "a{3",
    "[[:alpha:]]_kernel", "(?#comment)k1",
    # refused by both
    "(?<=a|bc)x", "(?<=a+)b", "x{2}{3}", "(?P<1>x)", r"\k<n>", r"[\d-z]", r"\1", r"(a)\2", "(?L)a"]
# Python semantics a match must follow (Boost reads some of them otherwise).
PYTHON_MATCH_REGEXES = ["(?x) k1 _", "a{,3}b", r"\u0041_kernel", "(?s)k1.", r"xyz_kernel\Z",
                        r"\x6b2_", "(?P<c>copy)_kernel", "[]k]1_", r"^\w+_kernel$", "^.{4}_kernel$",
                        "(?i)ЯДРО", "é$", r"_\W+$", r"^noyau_\w$"]
WORDS = ["per-chunk solve", "saved by forward", "warm cuBLAS workspace", "", "LSE from fwd",
         "the reference's mean/rstd", "ünïcode note", 'quote " inside', "back\\slash"]


def pick_regex(rng: random.Random, invalid_rate: float) -> str:
    r = rng.random()
    if r < invalid_rate:
        return rng.choice(INVALID_REGEXES)
    if r < invalid_rate + 0.12:
        return rng.choice(PYTHON_ONLY_REGEXES)
    if r < invalid_rate + 0.12 + 0.1 * (invalid_rate > 0):
        return rng.choice(DIALECT_REGEXES)
    return rng.choice(VALID_REGEXES)


def pad(name: str, rng: random.Random) -> str:
    """Names are stripped by the oracle; sometimes write them padded."""
    r = rng.random()
    if r < 0.04:
        return " " + name
    if r < 0.06:
        return name + "  "
    if r < 0.065:
        return "\u00a0" + name  # str.strip() strips Unicode whitespace too
    if r < 0.07:
        return name + rng.choice(["\x1f", "\x85", "\u3000"])  # so does it these
    return name


def scenario(rng: random.Random, *, mistakes: float = 1.0,
             unknown_keys: bool = True) -> tuple[dict, list[dict]]:
    """A contract document (dict, in TOML order) and the unknown keys it carries
    ({"key": dotted key} for each). `mistakes` scales how often things go wrong."""
    def chance(p: float) -> bool:
        return rng.random() < p * mistakes

    tensors = rng.sample(TENSORS, rng.randint(3, 9))
    outputs = rng.sample(OUTPUTS, rng.randint(1, 6))
    n_common = rng.randint(1, max(1, len(tensors) - 2))
    common_in, rest = tensors[:n_common], tensors[n_common:]
    split = rng.randint(0, len(rest))
    ref_only_in, stu_only_in = rest[:split], rest[split:]
    n_common_out = rng.randint(1 if rng.random() < 0.9 else 0, len(outputs))
    common_out, rest_out = outputs[:n_common_out], outputs[n_common_out:]
    split = rng.randint(0, len(rest_out))
    ref_only_out, stu_only_out = rest_out[:split], rest_out[split:]

    def listing(names: list[str]) -> list[str]:
        out = [pad(n, rng) for n in names]
        rng.shuffle(out)
        if out and chance(0.05):
            out.insert(rng.randrange(len(out) + 1), rng.choice(out))  # listed twice
        if chance(0.03):
            out.insert(rng.randrange(len(out) + 1), rng.choice(["", "  "]))
        return out

    ref_in = listing(common_in + ref_only_in)
    stu_in = listing(common_in + stu_only_in)
    ref_out = listing(common_out + ref_only_out)
    stu_out = listing(common_out + stu_only_out)
    for lst in (ref_in, stu_in, ref_out, stu_out):
        if chance(0.03):
            lst.clear()

    entries: list[dict] = []
    ref_input_entries: list[dict] = []
    student_input_entries: list[dict] = []

    def entry(kind: str, name: str, cls: str) -> dict:
        e: dict = {kind: pad(name, rng), "class": cls}
        payer = PAYER[kind]
        if chance(0.04):
            e["class"] = rng.choice(BAD_CLASSES)
        if rng.random() < 0.7:
            if chance(0.06):
                e["produced_by"] = rng.choice(BAD_PRODUCERS)
            else:
                e["produced_by"] = rng.choice(PRODUCERS if kind.endswith("input")
                                              else ["forward", "other", "cache"])
        if cls == "symmetrize" and e.get("produced_by") != "cache":
            if not chance(0.08):
                e["shape"] = [rng.choice([1, 4, 8, 64, 128, 4096]) for _ in range(rng.randint(0, 3))]
            if not chance(0.08):
                e["dtype"] = rng.choice(DTYPES)
        elif chance(0.05):
            if rng.random() < 0.5:
                e["shape"] = [rng.randint(1, 512)]
            else:
                e["dtype"] = rng.choice(DTYPES)
        if cls == "price" and rng.random() < 0.75:
            e[REGEX_KEY[payer]] = pick_regex(rng, 0.12 * mistakes)
        if chance(0.05):
            e[REGEX_KEY[OTHER_SIDE[payer]]] = pick_regex(rng, 0.0)
        if cls != "price" and chance(0.05):
            e[REGEX_KEY[payer]] = pick_regex(rng, 0.0)
        if rng.random() < 0.3:
            e["note"] = rng.choice(WORDS)
        return e

    for name in ref_only_in:
        if not chance(0.25):
            cls = "symmetrize" if chance(0.1) else rng.choice(["price", "price", "accept"])
            e = entry("ref_input", name, cls)
            ref_input_entries.append(e)
            entries.append(e)
        # else: undeclared, unless a student_input entry below derives from it
    explain_ref: list[str] = [n for n in ref_only_in
                              if not any(e.get("ref_input", "").strip() == n for e in entries)]
    for name in stu_only_in:
        r = rng.random()
        if r < 0.65 or (not ref_input_entries and not chance(0.3)):
            cls = "symmetrize" if chance(0.1) else rng.choice(["price", "accept", "price"])
            e = entry("student_input", name, cls)
            if explain_ref and rng.random() < 0.6:
                e["derived_from"] = rng.choice([", ", " ", ",", " ,\t"]).join(
                    rng.sample(explain_ref, rng.randint(1, len(explain_ref))))
            student_input_entries.append(e)
            entries.append(e)
        elif ref_input_entries and not chance(0.1):
            host = rng.choice(ref_input_entries)
            prev = host.get("derived_from", "")
            sep = (rng.choice([", ", " ", ","]) if rng.random() > 0.1
                   else rng.choice(["\u2003", "\x1f", ",\x85"]))  # \s in Python's re
            host["derived_from"] = (prev + sep + name) if prev else name
    for name in common_in:
        if rng.random() < 0.35:
            cls = "symmetrize" if not chance(0.15) else rng.choice(["price", "accept"])
            kind = "ref_input" if rng.random() < 0.6 else "student_input"
            entries.append(entry(kind, name, cls))
    for name in ref_only_out:
        if not chance(0.15):
            entries.append(entry("ref_output", name, "symmetrize" if chance(0.08)
                                 else rng.choice(["price", "accept"])))
    for name in stu_only_out:
        if not chance(0.15):
            entries.append(entry("student_output", name, "symmetrize" if chance(0.08)
                                 else rng.choice(["price", "accept"])))
    for name in common_out:
        if chance(0.06):
            entries.append(entry(rng.choice(["ref_output", "student_output"]), name,
                                 rng.choice(["price", "accept"])))
    if chance(0.08):  # an entry naming something not in its own list
        kind = rng.choice(KINDS)
        entries.append(entry(kind, rng.choice(TENSORS + OUTPUTS), rng.choice(["price", "accept", "symmetrize"])))
    rng.shuffle(entries)
    if entries and chance(0.1):  # declared twice, the copy possibly different
        dup = dict(rng.choice(entries))
        if rng.random() < 0.5:
            dup["class"] = rng.choice(["price", "accept", "symmetrize", "bogus"])
        entries.insert(rng.randrange(len(entries) + 1), dup)

    doc: dict = {}
    unknown: list[dict] = []
    r = rng.random()
    if r < 0.7:
        doc["schema_version"] = 1
    elif r < 0.75:
        doc["schema_version"] = 1.0
    reference: dict = {}
    student: dict = {}
    for table, side_in, side_out, window in ((reference, ref_in, ref_out, "bwd call only (autograd path)"),
                                             (student, stu_in, stu_out, "bwd call from raw inputs")):
        if rng.random() < 0.6:
            table["window"] = window
        if side_in or rng.random() < 0.5:
            table["inputs"] = side_in
        if side_out or rng.random() < 0.5:
            table["outputs"] = side_out
    doc["reference"] = reference
    doc["student"] = student
    if entries:
        doc["asymmetry"] = entries
    elif rng.random() < 0.1:
        doc["asymmetry"] = []
    if unknown_keys and chance(0.12):
        add_unknown_keys(doc, rng, unknown)
    return doc, unknown


TYPOS = {"studnet_kernel_regex": "student_kernel_regex", "ref_kernel_regx": "ref_kernel_regex",
         "clas": "class", "produced-by": "produced_by", "derived_form": "derived_from",
         "dtpye": "dtype", "shapes": "shape", "notes": "note", "inptus": "inputs",
         "output": "outputs", "windw": "window", "schema-version": "schema_version",
         "schema_verison": "schema_version", "comment": None, "owner": None, "todo": None}


def add_unknown_keys(doc: dict, rng: random.Random, unknown: list[dict]) -> None:
    """Add (or rename into) keys the schema does not know. A rename changes what the
    oracle sees, and it decides what that means; the warning is ours."""
    for _ in range(rng.randint(1, 2)):
        where = rng.choice(["", "reference", "student", "asymmetry"])
        if where == "":
            table, prefix = doc, ""
            candidates = ["schema_verison", "schema-version", "comment", "owner"]
        elif where == "asymmetry":
            entries = doc.get("asymmetry") or []
            if not entries:
                continue
            i = rng.randrange(len(entries))
            table, prefix = entries[i], f"asymmetry[{i + 1}]."
            candidates = ["studnet_kernel_regex", "ref_kernel_regx", "clas", "produced-by",
                          "derived_form", "dtpye", "shapes", "notes", "todo"]
        else:
            table, prefix = doc[where], f"{where}."
            candidates = ["inptus", "output", "windw", "comment"]
        key = rng.choice(candidates)
        if key in table:
            continue
        fix = TYPOS.get(key)
        if fix and fix in table and rng.random() < 0.5:
            # a rename: the typo replaces the real key, keeping its place
            items = list(table.items())
            table.clear()
            table.update((key if k == fix else k, v) for k, v in items)
        else:
            value = rng.choice(["x", 1, True, ["a"], "k1_"])
            if where == "":
                items = list(table.items())
                table.clear()
                table[key] = value  # top-level scalars must come before the tables
                table.update(items)
            else:
                table[key] = value
        unknown.append({"key": prefix + key})


# --- broken contracts --------------------------------------------------------------

SYNTAX_BREAKS = [
    ("unclosed-array", lambda t: t + "x = [1, 2\n"),
    ("unterminated-string", lambda t: t + 'note = "no end\n'),
    ("duplicate-key", lambda t: t.replace("[reference]\n", "[reference]\nwindow = \"a\"\nwindow = \"b\"\n", 1)
     if "[reference]\n" in t else t + "dup = 1\ndup = 2\n"),
    ("missing-key", lambda t: t + "= 1\n"),
    ("unclosed-header", lambda t: t + "[student\n"),
    ("table-twice", lambda t: t + "[reference]\nwindow = \"x\"\n[reference]\nwindow = \"y\"\n"
     if "[reference]" not in t and "reference =" not in t and "reference." not in t
     else t + "[student]\n[student]\n"),
    ("invalid-escape", lambda t: t + 'bad = "a\\qb"\n'),
    ("bare-word-value", lambda t: t + "word = hello\n"),
    ("newline-in-string", lambda t: t + 'n = "a\nb"\n'),
    ("trailing-garbage", lambda t: "schema_version = 1 x\n" + t),
    ("missing-value", lambda t: t + "key =\n"),
    ("bad-array-sep", lambda t: t + 'arr = ["a" "b"]\n'),
    ("control-char", lambda t: t + 'c = "a\x01b"\n'),
    ("inline-table-newline", lambda t: t + 'it = { a = 1,\n b = 2 }\n'),
    ("not-toml-at-all", lambda t: '{"schema_version": 1}\n'),
    ("yaml", lambda t: "reference:\n  inputs: [q, k]\n"),
    ("redefine-via-array", lambda t: t + "[[reference]]\n"),
    ("bad-number", lambda t: t + "n = 1__0\n"),
    ("leading-zero", lambda t: t + "n = 007\n"),
    ("unicode-bare-key", lambda t: t + "α = 1\n"),
    ("byte-order-mark", lambda t: "\ufeff" + t),
]

SCHEMA_VERSIONS = [Raw("0"), Raw("2"), Raw("-1"), Raw('"1"'), Raw("1.5"), Raw("2.0"),
                   Raw("'v1'"), Raw("[1]"), Raw("+1"), Raw("1.0"), Raw("1e0"), Raw("0x1"),
                   Raw("true"), Raw("{ v = 1 }"), Raw("1979-05-27")]


def base_doc(rng: random.Random) -> dict:
    doc, unknown = scenario(rng, mistakes=0.3, unknown_keys=False)
    assert not unknown
    return doc


def any_entry(doc: dict, rng: random.Random) -> dict:
    entries = doc.setdefault("asymmetry", [])
    if not entries:
        name = (doc["reference"].get("inputs") or ["A"])[0]
        entries.append({"ref_input": name, "class": "price"})
    return rng.choice(entries)


def broken_case(rng: random.Random, i: int) -> tuple[str, str, str | None]:
    """(tag, toml text, difference note or None) for one broken contract."""
    doc = base_doc(rng)
    family = i % 9
    if family == 0:
        name, brk = rng.choice(SYNTAX_BREAKS)
        return f"malformed-toml:{name}", brk(emit_toml(doc, rng)), None
    if family == 1:
        doc.pop("schema_version", None)
        v = rng.choice(SCHEMA_VERSIONS)
        doc = {"schema_version": v, **doc}
        return f"schema-version:{v.text}", emit_toml(doc, rng), None
    if family == 2:
        e = any_entry(doc, rng)
        kind = next(k for k in KINDS if k in e)
        if rng.random() < 0.5:
            e.pop(kind)
            if rng.random() < 0.4:
                e[rng.choice(KINDS)] = rng.choice(["", "   "])
            return "keyed-by-none", emit_toml(doc, rng), None
        e[rng.choice([k for k in KINDS if k != kind])] = rng.choice(TENSORS)
        return "keyed-by-several", emit_toml(doc, rng), None
    if family == 3:
        e = any_entry(doc, rng)
        e["shape"] = rng.choice([Raw('"4"'), Raw("[4.0]"), Raw("[true]"), Raw("4"), Raw("[[1, 2]]"),
                                 Raw('["4096"]'), Raw("[1, 2.5]"), Raw("{ n = 1 }")])
        return "shape-not-ints", emit_toml(doc, rng), None
    if family == 4:
        side = rng.choice(["reference", "student"])
        key = rng.choice(["inputs", "outputs"])
        doc[side][key] = rng.choice([Raw('"q"'), Raw("[1, 2]"), Raw('[["a"]]'), Raw('["a", 1]'),
                                     Raw("true"), Raw("{ a = 1 }"), Raw("[1979-05-27]")])
        return "list-not-strings", emit_toml(doc, rng), None
    if family == 5:
        what = rng.choice(["reference", "student", "asymmetry"])
        if what == "asymmetry":
            doc["asymmetry"] = rng.choice([Raw('"x"'), Raw("[1, 2]"), Raw("5"), Raw('["a"]'),
                                           Raw("{ ref_input = \"A\" }"), Raw("true")])
        else:
            doc[what] = rng.choice([Raw('"x"'), Raw("5"), Raw("[1]"), Raw("true"), Raw('["q"]')])
        return f"table-wrong-type:{what}", emit_toml(doc, rng), None
    if family == 6:
        # The Python oracle's README, difference 2: the oracle coerces a non-string with str().
        e = any_entry(doc, rng)
        key = rng.choice(["kind", "window"] + list(ENTRY_STRING_KEYS))
        value = rng.choice([Raw("1"), Raw("true"), Raw("2.5"), Raw('["a", "b"]'), Raw("{ x = 1 }"),
                            Raw("1979-05-27"), Raw("0"), Raw("false"), Raw("[]")])
        if key == "window":
            doc[rng.choice(["reference", "student"])]["window"] = value
        elif key == "kind":
            kind = next(k for k in KINDS if k in e)
            e[kind] = value
        else:
            e[key] = value
        return (f"non-string:{key}={value.text}", emit_toml(doc, rng),
                "README difference 2: the reference coerces a non-string with str(); "
                "ForgeKernel refuses the file as malformed")
    if family == 7:
        # Falsy values where a table is wanted: `x or {}` in the oracle reads
        # them as empty. Not a documented difference: the oracle's verdict stands.
        what = rng.choice(["reference", "student", "asymmetry"])
        doc[what] = rng.choice([Raw("[]"), Raw('""'), Raw("false"), Raw("0"), Raw("{}")])
        return f"falsy-table:{what}={doc[what].text}", emit_toml(doc, rng), None
    # family 8: nothing at all, blank or comment-only files, the scaffold placeholder
    text = rng.choice(["", "\n", "# nothing declared yet\n", "schema_version = 1\n",
                       "schema_version = 1\n[reference]\ninputs = []\noutputs = []\n"
                       "[student]\ninputs = []\noutputs = []\n",
                       "[reference]\n[student]\n", "[[asymmetry]]\nref_input = \"A\"\nclass = \"price\"\n"])
    return "placeholder", text, None


# --- message -> code classification --------------------------------------------------

REPR = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
ENTRY = r"\[\[asymmetry\]\] (?P<kind>ref_input|student_input|ref_output|student_output)=(?P<name>" + REPR + ")"
RKEY = r"(?:student_kernel_regex|ref_kernel_regex)"
LIST = r"\[(?:reference|student)\]\.(?:inputs|outputs)"

FINDING_PATTERNS = [
    ("list-empty", r"(?P<subject>" + LIST + r") is empty — list .+"),
    ("entry-duplicate", ENTRY + r" is declared twice"),
    ("entry-not-listed", ENTRY + r" names something that is not in " + LIST),
    ("class-invalid", ENTRY + r" has class=" + REPR + r"; must be one of symmetrize, price, accept"),
    ("output-symmetrize", ENTRY + r": outputs cannot be symmetrize — an output both sides produce "
                                  r"needs no entry; class it price/accept"),
    ("output-both-sides", ENTRY + r" is class=(?:price|accept) but both sides produce it — remove the entry"),
    ("symmetrize-one-side", ENTRY + r" is class=symmetrize but only one side receives it — add it to "
                                    r"\[(?:reference|student)\]\.inputs, or class it price/accept"),
    ("input-both-sides", ENTRY + r" is class=(?:price|accept) but both sides receive it — class it "
                                 r"symmetrize, or remove it from \[(?:reference|student)\]\.inputs"),
    ("produced-by-invalid", ENTRY + r" has produced_by=" + REPR + r"; must be one of forward, prep, cache, other"),
    ("prep-shape-missing", ENTRY + r" is symmetrize but declares no shape — the bench's prep step is held .+"),
    ("prep-dtype-missing", ENTRY + r" is symmetrize but declares no dtype — the bench's prep step is held .+"),
    ("prep-decl-misplaced", ENTRY + r" carries shape/dtype but is not a prep-produced symmetrize entry — "
                                    r"only symmetrized inputs are held to a prep declaration"),
    ("regex-wrong-side", ENTRY + r" carries " + RKEY + r" but the (?:student|reference) side pays for it — use " + RKEY),
    ("regex-not-price", ENTRY + r" carries " + RKEY + r" but is class=(?:symmetrize|accept) — only "
                                                     r"price-class entries are credited"),
    ("regex-invalid", ENTRY + r" " + RKEY + r" is not a valid regex: .+"),
    ("ref-input-undeclared", r"reference input (?P<tensor>" + REPR + r") is not a student input and has "
                             r"no \[\[asymmetry\]\] ref_input entry — .+"),
    ("student-input-undeclared", r"student input (?P<tensor>" + REPR + r") is not a reference input and has "
                                 r"no \[\[asymmetry\]\] student_input entry — .+"),
    ("ref-output-undeclared", r"reference output (?P<tensor>" + REPR + r") is not produced by the student "
                              r"and has no \[\[asymmetry\]\] ref_output entry — .+"),
    ("student-output-undeclared", r"student output (?P<tensor>" + REPR + r") is not produced by the reference "
                                  r"and has no \[\[asymmetry\]\] student_output entry — .+"),
    ("contract-absent", r"window\.toml is absent — .+"),
]
WARNING_PATTERNS = [
    ("price-unpriced", r"asymmetry (?P<kind>ref_input|student_input|ref_output|student_output)=(?P<name>"
                       + REPR + r") is class=price but has no " + RKEY + r" — the credited ratio .+"),
]
PREP_PATTERNS = [
    ("prep-unreported", r"the bench reported no prep block — .+"),
    ("prep-mutated", r"the timed call mutated the prep tensor\(s\) (?P<tensors>.*) — they are handed .+"),
    ("prep-missing", r"prep did not produce (?P<tensor>" + REPR + r") \(declared symmetrize; got .*\)"),
    ("prep-shape", r"prep produced (?P<tensor>" + REPR + r") with shape \[.*\], declared \[.*\]"),
    ("prep-dtype", r"prep produced (?P<tensor>" + REPR + r") with dtype .+, declared .+"),
    ("prep-undeclared", r"prep produced an undeclared tensor (?P<tensor>" + REPR + r") \(shape .*\) — .+"),
]
WHY_PATTERNS = [
    ("table-missing", r"no (?P<side>student|reference) per-kernel table on record"),
    ("regex-unmatched", r"(?P<side>student|reference) regex matched nothing for (?P<names>.+) \(fused / renamed\?\)"),
    ("coverage-out-of-band", r"(?P<side>student|reference) NCU table does not reconcile with its timed "
                             r"window \(profiled per-call kernel time = .+"),
]


def classify(message: str, patterns) -> tuple[str, re.Match]:
    hits = [(code, m) for code, pat in patterns
            if (m := re.fullmatch(pat, message, flags=re.DOTALL))]
    if len(hits) != 1:
        raise SystemExit(f"message matches {len(hits)} patterns ({[c for c, _ in hits]}), "
                         f"want exactly one: {message!r}")
    return hits[0]


def finding_of(message: str, patterns, severity: str, contract: dict | None) -> dict:
    code, m = classify(message, patterns)
    groups = m.groupdict()
    if groups.get("kind"):
        name = ast.literal_eval(groups["name"])
        subject = f"{groups['kind']}={name}"
        if contract is not None and not any(a["kind"] == groups["kind"] and a["name"] == name
                                            for a in contract["asymmetries"]):
            raise SystemExit(f"{code} names {subject}, which the parsed contract lacks: {message!r}")
    elif groups.get("tensor"):
        subject = ast.literal_eval(groups["tensor"])
        lst = {"ref-input-undeclared": "reference_inputs", "student-input-undeclared": "student_inputs",
               "ref-output-undeclared": "reference_outputs",
               "student-output-undeclared": "student_outputs"}[code]
        if contract is not None and subject not in contract[lst]:
            raise SystemExit(f"{code} names {subject!r}, not in {lst}: {message!r}")
    else:
        subject = groups.get("subject")
    return {"code": code, "severity": severity, "subject": subject}


def expected_findings(answer: dict, unknown: list[dict]) -> dict:
    if "error" in answer:
        return {"declared": False,
                "findings": [{"code": "malformed", "severity": "error", "subject": None}]}
    contract = answer.get("contract")
    out = [finding_of(m, FINDING_PATTERNS, "error", contract) for m in answer["findings"]]
    out += [finding_of(m, WARNING_PATTERNS, "warning", contract) for m in answer["warnings"]]
    out += [{"code": "unknown-key", "severity": "warning", "subject": u["key"]} for u in unknown]
    return {"declared": answer["declared"], "findings": out}


# --- findings vectors -------------------------------------------------------------------

def findings_cases(rng: random.Random) -> list[dict]:
    cases: list[dict] = []
    for i in range(900):
        doc, unknown = scenario(rng, mistakes=rng.choice([0.0, 0.0, 0.5, 1.0, 1.5]))
        cases.append({"tag": "varied" + (":unknown-key" if unknown else ""),
                      "toml": emit_toml(doc, rng), "unknown": unknown})
    for i in range(360):
        tag, text, difference = broken_case(rng, i)
        case = {"tag": tag, "toml": text, "unknown": []}
        if difference:
            case["difference"] = difference
        cases.append(case)
    for tag, text in (("absent", None), ("absent", None)):
        cases.append({"tag": tag, "toml": text, "unknown": []})
    return cases


def findings_vectors(reference: Path, rng: random.Random) -> list[dict]:
    cases = findings_cases(rng)
    answers = ask_oracle(reference, [{"op": "findings", "toml": c["toml"], "with_contract": True}
                                     for c in cases])
    out = []
    for n, (case, answer) in enumerate(zip(cases, answers), 1):
        expect = expected_findings(answer, case["unknown"])
        if case["tag"].startswith("malformed-toml:") and "error" not in answer:
            raise SystemExit(f"the reference reads a broken file ({case['tag']}): {case['toml']!r}")
        if case.get("difference"):
            if "error" in answer:
                del case["difference"]  # refused by both: nothing differs
            else:
                expect = {"declared": False,
                          "findings": [{"code": "malformed", "severity": "error", "subject": None}]}
        if case["toml"] is None:
            assert [f["code"] for f in expect["findings"]] == ["contract-absent"]
        vec = {"id": f"findings-{n:04d}", "tag": case["tag"], "toml": case["toml"], "expect": expect,
               "reference": {k: answer[k] for k in ("error", "findings", "warnings") if k in answer}}
        if case.get("difference"):
            vec["difference"] = case["difference"]
        out.append(vec)
    return out


# --- prep vectors -----------------------------------------------------------------------

def prep_contract(rng: random.Random) -> tuple[dict, list[dict]]:
    """A declared, consistent contract and its prep-checked entries."""
    common = rng.sample(TENSORS, rng.randint(2, 6))
    n_prep = rng.choice([0, 1, 1, 2, 2, 3, 4])
    prep_names = common[:min(n_prep, len(common))]
    entries = []
    for name in prep_names:
        e = {"ref_input": name, "class": "symmetrize",
             "produced_by": rng.choice(["forward", "prep", "forward", "other"]),
             "shape": [rng.choice([2, 4, 16, 128, 4096]) for _ in range(rng.randint(1, 3))],
             "dtype": rng.choice(DTYPES[:10])}
        if rng.random() < 0.2:
            e.pop("produced_by")
        entries.append(e)
    if len(common) > len(prep_names) and rng.random() < 0.3:
        entries.append({"student_input": common[-1], "class": "symmetrize", "produced_by": "cache"})
    extra = rng.sample([t for t in TENSORS if t not in common], rng.randint(0, 2))
    for name in extra:
        entries.append({"ref_input": name, "class": rng.choice(["price", "accept"]),
                        "student_kernel_regex": rng.choice(VALID_REGEXES)})
    for e in entries:
        if e.get("class") == "accept":
            e.pop("student_kernel_regex", None)
    rng.shuffle(entries)
    outputs = rng.sample(OUTPUTS, rng.randint(1, 3))
    doc = {"schema_version": 1,
           "reference": {"inputs": common + extra, "outputs": outputs},
           "student": {"inputs": list(common), "outputs": list(outputs)}}
    if rng.random() < 0.06:
        doc["student"]["inputs"] = []  # undeclared: nothing to hold
    if entries:
        doc["asymmetry"] = entries
    prep = [e for e in entries if e.get("class") == "symmetrize" and e.get("produced_by") != "cache"]
    return doc, prep


ALIASES = {"bf16": ["bfloat16", "torch.bfloat16", "BF16"], "fp32": ["float32", "float", "torch.float32"],
           "fp16": ["half", "float16", "torch.float16"], "i64": ["int64", "long"], "i32": ["int32", "int"],
           "e4m3": ["float8_e4m3fn"], "e5m2": ["float8_e5m2", "torch.float8_e5m2"], "u8": ["uint8"],
           "bool": ["torch.bool"]}
CANON = {"bf16": "bf16", "bfloat16": "bf16", "torch.bfloat16": "bf16", "BF16": "bf16",
         "fp32": "fp32", "float32": "fp32", " fp32 ": "fp32", "fp16": "fp16", "half": "fp16",
         "torch.float16": "fp16", "int64": "i64", "i32": "i32", "e4m3": "e4m3", "float8_e5m2": "e5m2",
         "bool": "bool", "u8": "u8", "complex64": "complex64"}
OTHER_DTYPES = ["fp16", "fp32", "bf16", "int8", "torch.int32", "float64", "e4m3", "complex64", None]


# What a bench may write that the oracle reads with int(), str() and
# normalize_dtype() (a value it would raise on is left out: ForgeKernel refuses those).
def coerced_shape(shape: list[int], rng: random.Random) -> list:
    return rng.choice([[float(x) for x in shape], [str(x) for x in shape], [f" {x} " for x in shape],
                       [x + 0.7 for x in shape], [True] * len(shape) if set(shape) == {1} else list(shape)])


def coerced_dtype(dtype: str, rng: random.Random) -> object:
    canon = CANON.get(dtype, dtype.strip().lower())
    return rng.choice([("TORCH." + canon).upper(), f"  {canon.upper()}\t", 16, 0, False, ""])


def prep_block(prep: list[dict], rng: random.Random, mutate: float, coerced: list[str]) -> dict | None:
    outputs: dict = {}
    for e in prep:
        name = e["ref_input"]
        canon = CANON.get(e["dtype"], e["dtype"].strip().lower())
        dtype = rng.choice(ALIASES.get(canon, [canon]) + [e["dtype"]])
        got: dict = {"shape": list(e["shape"]), "dtype": dtype}
        if rng.random() < 0.08:
            got["shape"] = coerced_shape(e["shape"], rng)
            coerced.append("shape")
        if rng.random() < 0.06:
            got["dtype"] = coerced_dtype(e["dtype"], rng)
            coerced.append("dtype")
        r = rng.random()
        if r < mutate * 0.25:
            continue  # missing
        if r < mutate * 0.5:
            got["shape"] = rng.choice([e["shape"][:-1], e["shape"] + [1],
                                       [s * 2 for s in e["shape"]], list(reversed(e["shape"])), []])
        elif r < mutate * 0.7:
            got["dtype"] = rng.choice([d for d in OTHER_DTYPES if d is None or CANON.get(d, d) != canon])
            if got["dtype"] is None:
                got.pop("dtype")
        elif r < mutate * 0.75:
            outputs[name] = rng.choice(["present", 3, ["a"]])  # not an object: not produced
            continue
        outputs[name] = got
    if rng.random() < mutate * 0.3:
        extra = rng.choice([t for t in TENSORS if t not in outputs] or ["zz"])
        outputs[extra] = {"shape": [rng.randint(1, 64)], "dtype": rng.choice(["fp32", "bf16"])}
    keys = list(outputs)
    rng.shuffle(keys)
    block: dict = {"outputs": {k: outputs[k] for k in keys}}
    r = rng.random()
    if r < mutate * 0.25:
        names = [e["ref_input"] for e in prep] or ["state"]
        block["mutated"] = rng.sample(names, rng.randint(1, len(names)))
    elif r < mutate * 0.25 + 0.04:
        block["mutated"] = rng.choice(["dt", [1, "x"], {"a": 1}, None, [None]])
        coerced.append("mutated")
    elif r < 0.6:
        block["mutated"] = []
    if rng.random() < 0.7:
        block["ms"] = round(rng.uniform(0.001, 0.5), 4)
    r = rng.random()
    if r < mutate * 0.04:
        return None
    if r < mutate * 0.08:
        return rng.choice([{}, {"outputs": []}, {"outputs": None}, {"mutated": []}])
    return block


def prep_report(prep: list[dict], rng: random.Random) -> tuple[object, bool, str | None, str]:
    """(report, multi-workload?, difference note, tag)."""
    mutate = rng.choice([0.0, 0.3, 0.6, 1.0])
    coerced: list[str] = []
    r = rng.random()
    if r < 0.05:
        return None, False, None, "no-block"
    if r < 0.35:
        block = prep_block(prep, rng, mutate, coerced)
        return block, False, None, "single" + (":coerced" if coerced else "")
    n = rng.randint(1, 4)
    names = rng.sample(["m4096_n4096", "m1024_n8192", "small", "b2_t512", "w3", "long_seq"], n)
    workloads = []
    shared = prep_block(prep, rng, mutate, coerced) if rng.random() < 0.4 else None
    for i, name in enumerate(names):
        block = shared if shared is not None else prep_block(prep, rng, mutate, coerced)
        if rng.random() < 0.05:
            name = rng.choice([None, 3])  # str() of it tags the workload
            coerced.append("name")
        if block is None:
            sub: object = rng.choice([None, "w", 7]) if rng.random() < 0.5 else {"name": name}
        else:
            sub = {"name": name, **block} if rng.random() < 0.9 else dict(block)
        workloads.append(sub)
    if rng.random() < 0.04:
        workloads = [rng.choice([None, "w", 3, ["x"]]) for _ in workloads]
    report = {"workloads": workloads}
    if workloads and isinstance(workloads[0], dict) and rng.random() < 0.7:
        report["outputs"] = workloads[0].get("outputs", {})
        report["mutated"] = workloads[0].get("mutated", [])
    if rng.random() < 0.05:
        report["workloads"] = []
        report.update(prep_block(prep, rng, mutate, coerced) or {})
        return report, False, None, "empty-workloads" + (":coerced" if coerced else "")
    note = None
    tag = ("multi-shared" if shared is not None else "multi") + (":coerced" if coerced else "")
    if not any(isinstance(w, dict) for w in workloads):
        note = ("README difference 5: a non-empty workloads list with no object gets no problems "
                "from the reference; ForgeKernel reports prep-unreported")
        tag = "multi-no-object"
    return report, True, note, tag


def workload_tags(report: dict) -> list[str]:
    return [str(w.get("name", i)) for i, w in enumerate(report["workloads"]) if isinstance(w, dict)]


def expected_problem(message: str, multi: bool) -> dict:
    workloads = None
    if multi:
        m = re.fullmatch(r"(?P<body>.*) \(workloads? (?P<tags>[^()]*)\)", message, flags=re.DOTALL)
        if not m:
            raise SystemExit(f"multi-workload prep problem without its workloads: {message!r}")
        message, workloads = m["body"], m["tags"].split(", ")
    code, m = classify(message, PREP_PATTERNS)
    groups = m.groupdict()
    problem: dict = {"code": code, "subject": None}
    if groups.get("tensor"):
        problem["subject"] = ast.literal_eval(groups["tensor"])
    if code == "prep-mutated":
        # One problem per block naming every mutated tensor, as the oracle
        # words it (include/forge/prep/prep_check.hpp chose that subject).
        problem["subject"] = groups["tensors"]
    problem["workloads"] = workloads
    return problem


def prep_vectors(reference: Path, rng: random.Random) -> list[dict]:
    cases = []
    for _ in range(320):
        doc, prep = prep_contract(rng)
        report, multi, note, tag = prep_report(prep, rng)
        if not prep:
            tag += ":no-prep-entries"
        elif not doc["student"]["inputs"]:
            tag += ":undeclared"
        cases.append({"toml": emit_toml(doc, rng), "report": report, "multi": multi, "note": note,
                      "tag": tag})
    answers = ask_oracle(reference, [{"op": "prep", "toml": c["toml"], "report": c["report"]}
                                     for c in cases])
    out = []
    for n, (case, answer) in enumerate(zip(cases, answers), 1):
        if "error" in answer:
            raise SystemExit(f"a prep contract does not parse: {answer['error']}")
        problems = [expected_problem(m, case["multi"]) for m in answer["problems"]]
        vec = {"id": f"prep-{n:04d}", "tag": case["tag"], "toml": case["toml"], "report": case["report"]}
        if case["note"]:
            # The Python oracle's README, difference 5; the oracle says nothing, so neither do we about workloads.
            assert problems == [], problems
            if prep_entries_declared(case["toml"], reference):
                problems = [{"code": "prep-unreported", "subject": None, "workloads": None}]
                vec["difference"] = case["note"]
        if case["multi"]:
            tags = workload_tags(case["report"])
            for p in problems:
                assert p["workloads"] is None or set(p["workloads"]) <= set(tags), (p, tags)
        vec["expect"] = {"problems": problems}
        vec["reference"] = {"problems": answer["problems"]}
        out.append(vec)
    return out


def prep_entries_declared(toml: str, reference: Path) -> bool:
    """Does the contract hold the report to anything (declared, with prep entries)?"""
    ans = ask_oracle(reference, [{"op": "prep", "toml": toml, "report": None}])[0]
    return bool(ans.get("problems"))


# --- credit vectors ---------------------------------------------------------------------

KERNEL_NAMES = ["k1_solve_kernel", "k2_chunk_fwd", "chunk_3_bwd", "triton_red_fused_sum_0",
                "triton_poi_fused_add_1", "void cutlass::Kernel<gemm>", "ampere_bf16_s16816gemm",
                "flash_bwd_dq_dk_dv_kernel", "flash_fwd_kernel", "softmax_warp_forward",
                "Softmax_bwd", "layer_norm_bwd_kernel", "mean_rstd_kernel", "copy_kernel",
                "elementwise_kernel<add>", "reduce_kernel_sum", "lse_kernel", "LSE_reduce",
                "aab_kernel", "xyz_kernel", "(anonymous namespace)::cumsum_kernel",
                "dq_kernel", "dk_kernel", "lazy_start_to_end", "k2_kernel", "kk2_copy",
                "xx_fused_yy", "abab_kernel", "A_kernel", "norm", "fwd_then_bwd_kernel",
                "sm90.gemm_tile", "at::native::vectorized_elementwise_kernel<4>", "ядро_kernel",
                "noyau_é"]


def kernel_table(rng: random.Random, dup: bool, regexes: list[str]) -> list[dict]:
    """Rows of one side's table; most of the side's priced regexes find a kernel
    (Python's `re` only picks the names here; the oracle judges the match)."""
    names = rng.sample(KERNEL_NAMES, rng.randint(1, 6))
    for rx in regexes:
        hits = [n for n in KERNEL_NAMES if re.search(rx, n)]
        if hits and rng.random() < 0.88 and not any(re.search(rx, n) for n in names):
            names.insert(rng.randrange(len(names) + 1), rng.choice(hits))
    rows = []
    for name in names:
        launches = rng.randint(1, 8)
        time_ns = float(rng.choice([0, round(rng.uniform(500, 400000), 1), rng.randint(1, 90000)]))
        rows.append({"name": name, "launches": launches, "time_ns": time_ns, "pct": 0.0})
    if dup:
        row = dict(rng.choice(rows))
        row["time_ns"] = float(rng.randint(100, 50000))
        rows.insert(rng.randrange(len(rows) + 1), row)
    total = sum(r["time_ns"] for r in rows)
    for r in rows:
        r["pct"] = round(100.0 * r["time_ns"] / total, 3) if total > 0 else 0.0
    return rows


def merged(rows: list[dict] | None) -> list[dict] | None:
    """One row per name (time summed): what the Python oracle's README, difference 1, means ForgeKernel does."""
    if not rows:
        return rows
    out: dict[str, dict] = {}
    for r in rows:
        if r["name"] in out:
            out[r["name"]]["time_ns"] += r["time_ns"]
            out[r["name"]]["launches"] += r["launches"]
        else:
            out[r["name"]] = dict(r)
    return list(out.values())


def credit_contract(rng: random.Random) -> tuple[dict, dict[str, list[str]]]:
    """A declared contract and each payer's priced regexes."""
    common = rng.sample(TENSORS, rng.randint(1, 4))
    rest = [t for t in TENSORS if t not in common]
    ref_only = rng.sample(rest, rng.randint(0, 3))
    rest = [t for t in rest if t not in ref_only]
    stu_only = rng.sample(rest, rng.randint(0, 2))
    outs = rng.sample(OUTPUTS, rng.randint(2, 5))
    n = rng.randint(0, len(outs) - 1)
    common_out, extra_out = outs[:n + 1], outs[n + 1:]
    ref_extra_out = extra_out[:len(extra_out) // 2]
    stu_extra_out = extra_out[len(extra_out) // 2:]
    entries = []
    for kind, names in (("ref_input", ref_only), ("student_input", stu_only),
                        ("ref_output", ref_extra_out), ("student_output", stu_extra_out)):
        for name in names:
            cls = rng.choice(["price", "price", "price", "accept"])
            e = {kind: name, "class": cls, "produced_by": "forward"}
            if cls == "price" and rng.random() < 0.85:
                regex = rng.choice(VALID_REGEXES + PYTHON_ONLY_REGEXES + PYTHON_MATCH_REGEXES)
                e[REGEX_KEY[PAYER[kind]]] = regex
            entries.append(e)
    for name in common[:1]:
        if rng.random() < 0.3:
            entries.append({"ref_input": name, "class": "symmetrize", "shape": [4], "dtype": "fp32"})
    rng.shuffle(entries)
    doc = {"schema_version": 1,
           "reference": {"inputs": common + ref_only, "outputs": common_out + ref_extra_out},
           "student": {"inputs": common + stu_only, "outputs": common_out + stu_extra_out}}
    if rng.random() < 0.04:
        doc["reference"]["outputs"] = []  # undeclared: no credit
    if entries:
        doc["asymmetry"] = entries
    regexes: dict[str, list[str]] = {"student": [], "reference": []}
    for e in entries:
        for side, key in REGEX_KEY.items():
            if e.get("class") == "price" and e.get(key):
                regexes[side].append(e[key])
    return doc, regexes


def profiler_for(ms: float, rng: random.Random) -> dict | None:
    r = rng.random()
    if r < 0.15:
        return None
    calls = rng.choice([1, 1, 1, 2, 5, 10])
    if r < 0.2:
        return {"total_ns": float(rng.randint(1000, 90000)), "calls": calls}
    while True:
        coverage = rng.choice([rng.uniform(0.82, 1.18)] * 6 + [rng.uniform(0.3, 0.78),
                                                             rng.uniform(1.22, 3.0), 1.0, 0.8 + 1e-4])
        if abs(abs(coverage - 1.0) - 0.2) > 1e-6:
            break
    total = coverage * ms * 1e6 * calls
    prof: dict = {"total_ns": round(total, 1)}
    if calls != 1 or rng.random() < 0.7:
        prof["calls"] = calls
    return prof


# Coverages whose 3-decimal rounding is a tie, or looks like one in decimal:
# Python's round() goes half-to-even on the exact binary value.
ROUNDING_PROBES = [0.8125, 1.0625, 0.9375, 1.1875, 0.8005, 1.0015, 0.9995, 1.1235, 0.8345, 1.0005,
                   1.0785, 0.9005]


def rounding_probe(req: dict, side: str, rng: random.Random) -> None:
    cov = rng.choice(ROUNDING_PROBES)
    ms = rng.choice([1.0, 0.5, 0.25, 2.0])
    req[f"{side}_ms"] = ms
    req[f"{side}_profiler"] = {"total_ns": cov * ms * 1e6, "calls": 1}


# Rows and digests as a bench might write them: the oracle reads them with
# str(), float() and `or 0.0` (so does ForgeKernel's eval reader).
LENIENT_ROW_EDITS = [("name", None), ("name", 5), ("name", "<drop>"), ("time_ns", "123.5"),
                     ("time_ns", "abc"), ("time_ns", None), ("time_ns", "<drop>"), ("time_ns", True),
                     ("time_ns", " 2500 "), ("launches", "<drop>"), ("pct", "<drop>"), ("time_ns", "1e4")]
LENIENT_DIGESTS = [{}, {"total_ns": "5000.5", "calls": 1}, {"total_ns": None, "calls": 1},
                   {"total_ns": 100000.0, "calls": 0}, {"total_ns": 100000.0, "calls": None},
                   {"total_ns": 100000.0, "calls": "2"}, {"total_ns": 100000.0, "calls": 2.0},
                   {"total_ns": "n/a", "calls": 1}, {"calls": 1}]


def lenient(req: dict, rng: random.Random) -> None:
    side = rng.choice(["student", "ref"])
    rows = req[f"{side}_kernels"]
    if rows and rng.random() < 0.7:
        row = rng.choice(rows)
        key, value = rng.choice(LENIENT_ROW_EDITS)
        if value == "<drop>":
            row.pop(key, None)
        else:
            row[key] = value
    else:
        req[f"{side}_profiler"] = dict(rng.choice(LENIENT_DIGESTS))


def credit_case(rng: random.Random) -> tuple[dict, str | None]:
    doc, regexes = credit_contract(rng)
    dup = rng.random() < 0.05
    req: dict = {"op": "credit", "toml": emit_toml(doc, rng)}
    for side, payer in (("student", "student"), ("ref", "reference")):
        r = rng.random()
        if r < 0.04:
            rows = None
        elif r < 0.06:
            rows = []
        else:
            rows = kernel_table(rng, dup, regexes[payer])
        total_ms = sum(row["time_ns"] for row in rows or []) / 1e6 or rng.uniform(0.01, 2.0)
        ms = rng.choice([round(total_ms * rng.uniform(0.9, 1.1), 6)] * 14 + [0, None, round(total_ms * 3, 6)])
        req[f"{side}_kernels"] = rows
        req[f"{side}_ms"] = ms
        req[f"{side}_profiler"] = profiler_for(ms, rng) if ms else None
    probe = rng.random()
    if probe < 0.06:
        rounding_probe(req, rng.choice(["student", "ref"]), rng)
    elif probe < 0.14 and not dup:
        lenient(req, rng)
    note = None
    if dup and any(rows and len({r["name"] for r in rows}) != len(rows)
                   for rows in (req["student_kernels"], req["ref_kernels"])):
        note = ("README difference 1: a table with two rows of the same name; the reference counts "
                "only the last toward the matched time, ForgeKernel every matching row. Expected "
                "answer: the reference's on the table merged by name")
    return req, note


def expected_credit(answer: dict) -> dict:
    credit = answer["credit"]
    if credit is None:
        return {"credit": None, "ratio": answer["ratio"]}
    why = []
    for message in credit["why"]:
        code, m = classify(message, WHY_PATTERNS)
        why.append({"code": code, "side": m["side"]})
    out = dict(credit)
    out["why"] = why
    return {"credit": out, "ratio": answer["ratio"]}


def well_formed(req: dict) -> bool:
    """Rows and digests the KernelTable / ProfilerDigest model holds as written."""
    for side in ("student", "ref"):
        for row in req[f"{side}_kernels"] or []:
            if not (isinstance(row.get("name"), str) and type(row.get("launches")) is int
                    and type(row.get("time_ns")) is float and type(row.get("pct")) is float):
                return False
        digest = req[f"{side}_profiler"]
        if digest is not None and not (type(digest.get("total_ns")) is float
                                       and type(digest.get("calls", 1)) is int and digest.get("calls", 1) > 0):
            return False
    return True


def credit_tag(req: dict, note: str | None) -> str:
    features = ["dup-rows"] if note else []
    if not well_formed(req):
        features.append("lenient")
    for side in ("student", "ref"):
        if (req[f"{side}_profiler"] or {}).get("total_ns") in [c * req[f"{side}_ms"] * 1e6 for c in ROUNDING_PROBES
                                                                if req[f"{side}_ms"]]:
            features.append(f"{side}-rounding-probe")
    for side in ("student", "ref"):
        if req[f"{side}_kernels"] is None:
            features.append(f"{side}-no-table")
        elif not req[f"{side}_kernels"]:
            features.append(f"{side}-empty-table")
        if not req[f"{side}_ms"]:
            features.append(f"{side}-no-ms")
    return ":".join(features) or "tables"


def credit_vectors(reference: Path, rng: random.Random) -> list[dict]:
    cases = [credit_case(rng) for _ in range(320)]
    asked = []
    for req, note in cases:
        q = dict(req)
        if note:
            q["student_kernels"] = merged(req["student_kernels"])
            q["ref_kernels"] = merged(req["ref_kernels"])
        asked.append(q)
    answers = ask_oracle(reference, asked)
    out = []
    for n, ((req, note), answer) in enumerate(zip(cases, answers), 1):
        if "error" in answer:
            raise SystemExit(f"a credit contract does not parse: {answer['error']}")
        vec = {"id": f"credit-{n:04d}", "tag": credit_tag(req, note),
               **{k: v for k, v in req.items() if k != "op"},
               "expect": expected_credit(answer),
               "reference": {"why": (answer["credit"] or {}).get("why", [])}}
        if note:
            vec["difference"] = note
        out.append(vec)
    return out


# --- summary and output --------------------------------------------------------------------

def summary(findings: list[dict], prep: list[dict], credit: list[dict]) -> str:
    codes = Counter(f["code"] for v in findings for f in v["expect"]["findings"])
    missing = [c for c in FINDING_CODES if c not in codes]
    pcodes = Counter(p["code"] for v in prep for p in v["expect"]["problems"])
    pmissing = [c for c in PREP_CODES if c not in pcodes]
    wcodes = Counter(w["code"] for v in credit if v["expect"]["credit"] for w in v["expect"]["credit"]["why"])
    wmissing = [c for c in WHY_CODES if c not in wcodes]
    if missing or pmissing or wmissing:
        raise SystemExit(f"codes never exercised: {missing + pmissing + wmissing}")
    lines = [f"findings.jsonl: {len(findings)} contracts "
             f"({sum(1 for v in findings if not v['expect']['findings'])} clean, "
             f"{sum(1 for v in findings if 'difference' in v)} by a README difference)"]
    lines += [f"  {c}: {codes[c]}" for c in FINDING_CODES]
    lines.append(f"prep.jsonl: {len(prep)} reports "
                 f"({sum(1 for v in prep if not v['expect']['problems'])} held, "
                 f"{sum(1 for v in prep if 'difference' in v)} by a README difference)")
    lines += [f"  {c}: {pcodes[c]}" for c in PREP_CODES]
    usable = sum(1 for v in credit if v["expect"]["ratio"])
    lines.append(f"credit.jsonl: {len(credit)} cases ({sum(1 for v in credit if v['expect']['credit'])} "
                 f"with a credit, {usable} with a credited ratio, "
                 f"{sum(1 for v in credit if 'difference' in v)} by a README difference)")
    lines += [f"  {c}: {wcodes[c]}" for c in WHY_CODES]
    return "\n".join(lines)


def render(vectors: list[dict]) -> str:
    return "".join(json.dumps(v, ensure_ascii=False, allow_nan=False) + "\n" for v in vectors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_REFERENCE,
                        help="folder holding run_oracle.py (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=HERE, help="where the .jsonl files go")
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory; exit 1 when the committed files differ")
    args = parser.parse_args()
    if not (args.reference / "run_oracle.py").is_file():
        parser.error(f"{args.reference} holds no run_oracle.py; pass the reference folder")
    rng = random.Random(SEED)
    files = {"findings.jsonl": findings_vectors(args.reference, rng),
             "prep.jsonl": prep_vectors(args.reference, rng),
             "credit.jsonl": credit_vectors(args.reference, rng)}
    print(summary(files["findings.jsonl"], files["prep.jsonl"], files["credit.jsonl"]))
    stale = []
    for name, vectors in files.items():
        path = args.out / name
        text = render(vectors)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"out of date: {', '.join(stale)} (run {Path(__file__).name} and commit)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
