#!/usr/bin/env python3
"""oasdiff's own checker test pairs through `understudy diff`, as a user runs it.

oasdiff (github.com/oasdiff/oasdiff) is the best-known OpenAPI breaking-change detector; its checker tests diff a base
and a revision document and assert a level for each pair: ERR (breaking), WARN, INFO, or none (no change reported).
The suite's `cases.json` lists the pairs with those levels. Each pair is run as `understudy diff BASE REVISION
--format json --fail-on never`, and Understudy's verdict is its highest impact: breaking, warning, compatible, or
none.

The suite is read where it is (a folder with cases.json and data/): never copy it.

Usage: scripts/oasdiff-suite.py SUITE_DIR [--binary PATH] [--min-breaking PERCENT] [--max-harmless PERCENT] [--list]
                                 [--exact]
Prints, per oasdiff level and per rule family, how Understudy judged the pairs. Exits 1 when fewer than
--min-breaking percent of the ERR pairs are breaking or more than --max-harmless percent of the INFO and none pairs
are (defaults: 100 and 0, the goal), or with --exact when a pair outside DELIBERATE is judged otherwise than oasdiff
(or one inside it no longer is); 2 when the binary cannot run.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ORDER = ["breaking", "warning", "compatible", "none"]

# The pairs Understudy judges otherwise than oasdiff on purpose, each with its reason (the README's diff section says
# the same): an ERR pair not breaking, or an INFO/none pair breaking.
DELIBERATE = {
    "TestAPISecurityAdded": "a security requirement added refuses a caller without the credential",
    "TestAPIGlobalSecurityyAdded": "a security requirement added refuses a caller without the credential",
    "TestRequestParameterMaxDecreased": "maximum beside type: array constrains no value",
    "TestRequestParameterMaxItemsDecreased": "maxItems beside type: string constrains no value",
    "TestBreaking_RequestPropertyAllOfAdded": "the allOf branch added admits what the others do: nothing is refused",
    "TestRequestPropertyAllOfAdded_WithSources_Inline":
        "the allOf branch adds an optional property, which the app's old model never sends",
    "TestBreaking_ReqBodyNewRequiredPropertyNew":
        "a name added to required (undeclared) is a member the app's body lacks: the server refuses it",
}


def judge(binary, suite, case):
    """Understudy's verdict on one pair: (highest impact or "none" or "unread: ...", the rules it reported)."""
    try:
        run = subprocess.run(
            [binary, "diff", str(suite / case["base"]), str(suite / case["revision"]), "--format", "json",
             "--fail-on", "never"], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "unread: hang", []
    if run.returncode != 0:
        return f"unread: exit {run.returncode}: {run.stderr.strip()[:160]}", []
    changes = json.loads(run.stdout)["changes"]
    impacts = {change["impact"] for change in changes}
    verdict = next((impact for impact in ORDER if impact in impacts), "none")
    return verdict, sorted({change["rule"] for change in changes})


def family(case):
    """The rule family of a pair: the first word of oasdiff's first rule (`request`, `response`, `api`, ...)."""
    rules = list(case.get("oasdiff_rules", {}))
    return rules[0].split("-")[0] if rules else "none"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", type=Path, help="the suite's folder (cases.json, data/)")
    parser.add_argument("--binary", default=".build/debug/understudy")
    parser.add_argument("--min-breaking", type=float, default=100.0,
                        help="percent of the pairs oasdiff rates ERR that must be breaking")
    parser.add_argument("--max-harmless", type=float, default=0.0,
                        help="percent of the pairs oasdiff rates INFO or none that may be breaking")
    parser.add_argument("--list", action="store_true", help="list every pair judged otherwise than oasdiff")
    parser.add_argument("--exact", action="store_true",
                        help="fail when a pair outside DELIBERATE is judged otherwise than oasdiff, or one inside agrees")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    arguments = parser.parse_args()
    cases_file = arguments.suite / "cases.json"
    if not cases_file.is_file():
        print(f"{arguments.suite}: not the oasdiff suite (no cases.json)", file=sys.stderr)
        return 2
    if not os.access(arguments.binary, os.X_OK):
        print(f"{arguments.binary}: not an executable; build it first (swift build)", file=sys.stderr)
        return 2
    cases = json.loads(cases_file.read_text())["cases"]
    with ThreadPoolExecutor(arguments.jobs) as pool:
        verdicts = list(pool.map(lambda case: judge(arguments.binary, arguments.suite, case), cases))

    by_level = defaultdict(Counter)
    by_family = defaultdict(Counter)
    mismatches = []
    for case, (verdict, rules) in zip(cases, verdicts):
        level = case["oasdiff_level"]
        shown = verdict if not verdict.startswith("unread") else "unread"
        by_level[level][shown] += 1
        if level == "ERR":
            by_family[family(case)]["ERR"] += 1
            by_family[family(case)]["ERR breaking"] += verdict == "breaking"
        elif level in ("INFO", "none"):
            by_family[family(case)]["harmless"] += 1
            by_family[family(case)]["harmless breaking"] += verdict == "breaking"
        wrong = (level == "ERR" and verdict != "breaking") or (level in ("INFO", "none") and verdict == "breaking")
        if wrong or verdict.startswith("unread"):
            mismatches.append((case["id"], level, verdict, rules, list(case.get("oasdiff_rules", {}))))

    print(f"{'oasdiff level':<14} {'pairs':>5}  understudy's verdicts")
    for level in ("ERR", "WARN", "INFO", "none"):
        counts = by_level.get(level, Counter())
        described = ", ".join(f"{counts[v]} {v}" for v in ORDER + ["unread"] if counts[v])
        print(f"{level:<14} {sum(counts.values()):>5}  {described}")
    print()
    print(f"{'rule family':<14} {'ERR breaking':>14} {'harmless breaking':>18}")
    for name, counts in sorted(by_family.items()):
        err = f"{counts['ERR breaking']}/{counts['ERR']}" if counts["ERR"] else "-"
        harmless = f"{counts['harmless breaking']}/{counts['harmless']}" if counts["harmless"] else "-"
        print(f"{name:<14} {err:>14} {harmless:>18}")
    if arguments.list:
        print()
        for identifier, level, verdict, rules, expected in mismatches:
            reason = f" (deliberate: {DELIBERATE[identifier]})" if identifier in DELIBERATE else ""
            print(f"DIFFER {identifier}: oasdiff {level} {expected}, understudy {verdict} {rules}{reason}")

    err = by_level.get("ERR", Counter())
    harmless = by_level.get("INFO", Counter()) + by_level.get("none", Counter())
    err_share = 100 * err["breaking"] / max(1, sum(err.values()))
    harmless_share = 100 * harmless["breaking"] / max(1, sum(harmless.values()))
    unread = sum(counts["unread"] for counts in by_level.values())
    print(f"\nERR pairs breaking: {err['breaking']}/{sum(err.values())} ({err_share:.1f}%), needed "
          f"{arguments.min_breaking:.1f}%; INFO and none pairs breaking: {harmless['breaking']}/"
          f"{sum(harmless.values())} ({harmless_share:.1f}%), allowed {arguments.max_harmless:.1f}%; "
          f"{unread} pairs not read")
    passed = err_share >= arguments.min_breaking and harmless_share <= arguments.max_harmless and unread == 0
    differing = {identifier for identifier, *_ in mismatches}
    unexpected = sorted(differing - set(DELIBERATE))
    agreeing = sorted(set(DELIBERATE) - differing)
    print(f"judged otherwise than oasdiff: {len(differing)} pairs, {len(differing & set(DELIBERATE))} of them "
          f"deliberate (README), {len(unexpected)} not: {', '.join(unexpected) or 'none'}")
    if arguments.exact and (unexpected or agreeing):
        if agreeing:
            print(f"deliberate disagreements oasdiff now agrees with (drop them from DELIBERATE): {', '.join(agreeing)}")
        passed = False
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
