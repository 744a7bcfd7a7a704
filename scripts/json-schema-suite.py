#!/usr/bin/env python3
"""The official JSON Schema Test Suite through `understudy validate`, as a user runs it.

Each group's schema becomes `components/schemas/Subject` of a minimal OpenAPI document: 3.1.0 for
`tests/draft2020-12` (JSON Schema 2020-12), 3.0.3 for the groups of `tests/draft4` whose keywords OpenAPI 3.0 keeps.
Each test's `data` is a fixture of `GET /subject`'s 200 answer, and one `understudy validate --spec DOC --fixtures DIR
--format json` per group judges them all: a test is judged invalid when a finding of error severity names its file.
`refRemote` groups resolve `http://localhost:1234/...` against the suite's `remotes/`, which `--remotes` hands to the
binary (`UNDERSTUDY_SCHEMA_REMOTES`).

The suite is read where it is (a checkout of json-schema-org/JSON-Schema-Test-Suite): never copy it.

Usage: scripts/json-schema-suite.py SUITE_DIR [--binary PATH] [--require PERCENT] [--failures]
Prints the figures per file and per part (required 2020-12, the OpenAPI 3.0 subset of draft 4, optional); exits 1 when
the required parts pass fewer than --require percent of their cases (default 100), 2 when the binary cannot run.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# The keywords of OpenAPI 3.0's Schema Object (3.0.3, "Properties"): draft 4's, less the ones it leaves out.
OPENAPI30_KEYWORDS = {
    "title", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength",
    "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum", "type",
    "allOf", "oneOf", "anyOf", "not", "items", "properties", "additionalProperties", "description", "format",
    "default", "$ref", "definitions",
}
# Draft 4 files whose every group is about a keyword OpenAPI 3.0 does not have.
OPENAPI30_LEFT_OUT = {
    "additionalItems.json": "additionalItems is not in OpenAPI 3.0",
    "dependencies.json": "dependencies is not in OpenAPI 3.0",
    "patternProperties.json": "patternProperties is not in OpenAPI 3.0",
    "definitions.json": "validates against the draft 4 metaschema, which OpenAPI 3.0 does not use",
    "refRemote.json": "OpenAPI 3.0 documents refer to other documents, not to remote schemas by id",
    "infinite-loop-detection.json": "kept: see the group filter",
}
OPENAPI30_LEFT_OUT.pop("infinite-loop-detection.json")
VALUE_KEYWORDS = {"enum", "const", "default", "examples", "example"}


def openapi30_problem(schema, top=True):
    """Why a draft 4 schema is outside OpenAPI 3.0's dialect, or None."""
    if isinstance(schema, bool):
        return "boolean schemas are not in OpenAPI 3.0"
    if not isinstance(schema, dict):
        return None
    for key, value in schema.items():
        if key in VALUE_KEYWORDS:
            continue
        if key in ("properties", "definitions"):
            for member in value.values() if isinstance(value, dict) else []:
                problem = openapi30_problem(member, False)
                if problem:
                    return problem
            continue
        if key not in OPENAPI30_KEYWORDS:
            return f"{key} is not in OpenAPI 3.0"
        if key == "type" and (isinstance(value, list) or value == "null"):
            return "type arrays and type null are not in OpenAPI 3.0"
        if key == "items" and isinstance(value, list):
            return "items arrays are not in OpenAPI 3.0"
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            return "OpenAPI 3.0 refers to other documents, not to remote schemas by id"
        if isinstance(value, dict):
            problem = openapi30_problem(value, False)
            if problem:
                return problem
        if isinstance(value, list):
            for element in value:
                problem = openapi30_problem(element, False)
                if problem:
                    return problem
    return None


def rebased(schema, prefix):
    """The schema with its document-relative refs (`#/definitions/a`) pointing under `prefix`: in an OpenAPI 3.0
    document `#` is the document, not the schema."""
    if isinstance(schema, list):
        return [rebased(element, prefix) for element in schema]
    if not isinstance(schema, dict):
        return schema
    result = {}
    for key, value in schema.items():
        if key in VALUE_KEYWORDS:
            result[key] = value
        elif key == "$ref" and isinstance(value, str) and value.startswith("#"):
            result[key] = "#" + prefix + value[1:]
        else:
            result[key] = rebased(value, prefix)
    return result


def document(schema, dialect, name, answers=1):
    if dialect == "3.1":
        # A schema resource of its own, as an embedded 2020-12 schema is: its `#` fragments are its own.
        if not (isinstance(schema, dict) and "$id" in schema) and not isinstance(schema, bool):
            schema = dict(schema, **{"$id": f"https://understudy.invalid/suite/{name}.json"})
        version = "3.1.0"
    else:
        schema = rebased(schema, "/components/schemas/Subject")
        version = "3.0.3"
    # One endpoint answers the subject; more (`/subject1`, ...) give more generated values, each its own stream.
    operation = {"get": {"responses": {"200": {
        "description": "the subject",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Subject"}}}}}}}
    paths = {"/subject" + (str(number) if number else ""): operation for number in range(answers)}
    return {
        "openapi": version,
        "info": {"title": "suite", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Subject": schema}},
    }


def run_group(binary, remotes, part, file, index, group, dialect, extra):
    """The group's verdicts: (part, file, group description, [(test description, expected, judged or None)])."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        # The API is named after the file: its fixtures are in fixtures/suite/.
        doc = folder / "suite.json"
        doc.write_text(json.dumps(document(group["schema"], dialect, f"{Path(file).stem}-{index}")))
        fixtures = folder / "fixtures" / "suite"
        fixtures.mkdir(parents=True)
        for number, test in enumerate(group["tests"]):
            (fixtures / f"t{number:03}.json").write_text(
                json.dumps({"endpoint": "GET /subject", "responses": {"200": test["data"]}}))
        environment = dict(os.environ, UNDERSTUDY_SCHEMA_REMOTES=f"http://localhost:1234/={remotes}/")
        try:
            run = subprocess.run(
                [binary, "validate", "--spec", str(doc), "--fixtures", str(folder / "fixtures"), "--format", "json",
                 *extra],
                capture_output=True, text=True, timeout=60, env=environment)
        except subprocess.TimeoutExpired:
            return part, file, group["description"], [(t["description"], t["valid"], None, "hang") for t in group["tests"]]
        if run.returncode not in (0, 1):
            reason = f"exit {run.returncode}: {run.stderr.strip()[:200]}"
            return part, file, group["description"], [(t["description"], t["valid"], None, reason) for t in group["tests"]]
        try:
            findings = json.loads(run.stdout)["findings"]
        except (ValueError, KeyError):
            return part, file, group["description"], [(t["description"], t["valid"], None, "unreadable output") for t in group["tests"]]
        invalid = set()
        messages = {}
        for finding in findings:
            message = finding.get("message", "")
            for number in range(len(group["tests"])):
                if f"suite/t{number:03}.json" in message and finding.get("severity") == "error":
                    invalid.add(number)
                    messages.setdefault(number, message)
        return part, file, group["description"], [
            (t["description"], t["valid"], number not in invalid, messages.get(number, ""))
            for number, t in enumerate(group["tests"])]


GENERATED_ANSWERS = 4


def peer_validator(schema, dialect, remotes):
    """The group's schema in an independent validator (jsonschema-rs, formats asserted), or None without it."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    def retrieve(uri):
        if uri.startswith("http://localhost:1234/"):
            return json.loads((remotes / uri[len("http://localhost:1234/"):]).read_text())
        raise ValueError(f"no remote {uri}")
    kind = jsonschema_rs.Draft202012Validator if dialect == "3.1" else jsonschema_rs.Draft4Validator
    try:
        return kind(schema, validate_formats=True, retriever=retrieve)
    except Exception:
        return None


def generate_group(binary, remotes, part, file, index, group, dialect):
    """Values `understudy generate` makes for a satisfiable group's schema, judged by `understudy validate` and by a
    peer validator: (part, file, group description, verdict, message). The verdict is "valid", "invalid" (a value
    some validator refuses), or "broken" (a crash, a hang, no value)."""
    description = group["description"]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        doc = folder / "suite.json"
        doc.write_text(json.dumps(document(group["schema"], dialect, f"{Path(file).stem}-{index}", GENERATED_ANSWERS)))
        out = folder / "generated"
        environment = dict(os.environ, UNDERSTUDY_SCHEMA_REMOTES=f"http://localhost:1234/={remotes}/")
        try:
            made = subprocess.run([binary, "generate", "--spec", str(doc), "--out", str(out), "--seed", str(index + 1)],
                                  capture_output=True, text=True, timeout=60, env=environment)
            if made.returncode != 0:
                return part, file, description, "broken", f"generate exit {made.returncode}: {made.stderr.strip()[:200]}"
            judged = subprocess.run(
                [binary, "validate", "--spec", str(doc), "--fixtures", str(out), "--format", "json", "--format-assertion"],
                capture_output=True, text=True, timeout=60, env=environment)
        except subprocess.TimeoutExpired:
            return part, file, description, "broken", "hang"
        if judged.returncode not in (0, 1):
            return part, file, description, "broken", f"validate exit {judged.returncode}: {judged.stderr.strip()[:200]}"
        values = [json.loads(path.read_text())["responses"]["200"] for path in sorted((out / "suite").glob("*.json"))]
        if len(values) != GENERATED_ANSWERS:
            return part, file, description, "broken", f"{len(values)} values generated"
        errors = [f["message"] for f in json.loads(judged.stdout)["findings"] if f.get("severity") == "error"]
        if errors:
            return part, file, description, "invalid", errors[0][:200]
        peer = peer_validator(group["schema"], dialect, remotes)
        for value in values if peer else []:
            if not peer.is_valid(value):
                return part, file, description, "invalid", f"jsonschema-rs refuses {json.dumps(value)[:160]}"
        return part, file, description, "valid", "" if peer else "(no peer validator)"


def generation(arguments, runs, remotes):
    """The generation property: every value made for a satisfiable schema of the suite validates."""
    satisfiable = [run for run in runs if any(test["valid"] for test in run[3]["tests"])]
    with ThreadPoolExecutor(arguments.jobs) as pool:
        results = list(pool.map(
            lambda run: generate_group(arguments.binary, remotes, run[0], run[1], run[2], run[3], run[4]), satisfiable))
    by_part = {}
    for part, file, description, verdict, message in results:
        entry = by_part.setdefault(part, {"valid": 0, "invalid": 0, "broken": 0})
        entry[verdict] += 1
        if verdict != "valid" and arguments.failures:
            print(f"FAIL {part} {file} / {description}: {verdict} {message}")
    peer = "jsonschema-rs and understudy" if peer_validator(True, "3.1", remotes) is not None else "understudy only"
    print(f"generated values ({GENERATED_ANSWERS} per schema, judged by {peer}, formats asserted):")
    for part, entry in sorted(by_part.items()):
        total = sum(entry.values())
        print(f"{part}: {entry['valid']}/{total} schemas ({100 * entry['valid'] / total:.1f}%), "
              f"{entry['invalid']} with an invalid value, {entry['broken']} broken")
    required = [by_part[part] for part in ("2020-12", "3.0 (draft 4)") if part in by_part]
    valid, total = sum(e["valid"] for e in required), sum(sum(e.values()) for e in required)
    percent = 100 * valid / total if total else 0
    print(f"\nrequired: {valid}/{total} ({percent:.1f}%), needed {arguments.require:.1f}%")
    return 0 if percent >= arguments.require else 1


def groups(suite):
    """Every group to run: (part, file, index, group, dialect, extra arguments), and the groups left out."""
    tests = suite / "tests"
    runs, left_out = [], []
    for file in sorted((tests / "draft2020-12").glob("*.json")):
        for index, group in enumerate(json.loads(file.read_text())):
            runs.append(("2020-12", file.name, index, group, "3.1", []))
    for file in sorted((tests / "draft2020-12" / "optional").rglob("*.json")):
        relative = file.relative_to(tests / "draft2020-12").as_posix()
        assertion = ["--format-assertion"] if "format" in relative else []
        for index, group in enumerate(json.loads(file.read_text())):
            runs.append(("2020-12 optional", relative, index, group, "3.1", assertion))
    for file in sorted((tests / "draft4").glob("*.json")):
        for index, group in enumerate(json.loads(file.read_text())):
            reason = OPENAPI30_LEFT_OUT.get(file.name) or openapi30_problem(group["schema"])
            if reason:
                left_out.append((file.name, group["description"], len(group["tests"]), reason))
            else:
                runs.append(("3.0 (draft 4)", file.name, index, group, "3.0", []))
    return runs, left_out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", type=Path, help="the suite's folder (tests/, remotes/)")
    parser.add_argument("--binary", default=".build/debug/understudy")
    parser.add_argument("--require", type=float, default=100.0, help="percent of required cases that must pass")
    parser.add_argument("--failures", action="store_true", help="list every failing case")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--generate", action="store_true",
                        help="judge generated values instead: `understudy generate` for every satisfiable schema")
    arguments = parser.parse_args()
    if not (arguments.suite / "tests").is_dir():
        print(f"{arguments.suite}: not a JSON Schema Test Suite checkout (no tests/)", file=sys.stderr)
        return 2
    if not os.access(arguments.binary, os.X_OK):
        print(f"{arguments.binary}: not an executable; build it first (swift build)", file=sys.stderr)
        return 2
    runs, left_out = groups(arguments.suite)
    remotes = (arguments.suite / "remotes").resolve()
    if arguments.generate:
        return generation(arguments, runs, remotes)
    with ThreadPoolExecutor(arguments.jobs) as pool:
        results = list(pool.map(lambda run: run_group(arguments.binary, remotes, run[0], run[1], run[2], run[3], run[4], run[5]), runs))
    by_file, by_part, failures = {}, {}, []
    for part, file, description, verdicts in results:
        for test, expected, judged, message in verdicts:
            passed = judged == expected
            for key, table in (((part, file), by_file), (part, by_part)):
                entry = table.setdefault(key, [0, 0, 0])
                entry[0] += passed
                entry[1] += 1
                entry[2] += judged is None
            if not passed:
                failures.append((part, file, description, test, expected, judged, message))
    print(f"{'part':<18} {'file':<44} passed")
    for (part, file), (passed, total, broken) in sorted(by_file.items()):
        mark = "" if passed == total else "  <"
        crash = f" ({broken} not judged)" if broken else ""
        print(f"{part:<18} {file:<44} {passed}/{total}{crash}{mark}")
    print()
    for part, (passed, total, broken) in sorted(by_part.items()):
        crash = f", {broken} not judged (crash, hang or refusal)" if broken else ""
        print(f"{part}: {passed}/{total} ({100 * passed / total:.1f}%){crash}")
    skipped = sum(count for _, _, count, _ in left_out)
    print(f"3.0 (draft 4): {len(left_out)} groups ({skipped} cases) outside OpenAPI 3.0's dialect, not run")
    if arguments.failures:
        print()
        for part, file, description, test, expected, judged, message in failures:
            verdict = "not judged" if judged is None else "judged valid" if judged else "judged invalid"
            print(f"FAIL {part} {file} / {description} / {test}: expected {'valid' if expected else 'invalid'}, "
                  f"{verdict} {message[:160]}")
    required = [by_part[part] for part in ("2020-12", "3.0 (draft 4)") if part in by_part]
    passed, total = sum(p for p, _, _ in required), sum(t for _, t, _ in required)
    percent = 100 * passed / total if total else 0
    print(f"\nrequired: {passed}/{total} ({percent:.1f}%), needed {arguments.require:.1f}%")
    return 0 if percent >= arguments.require else 1


if __name__ == "__main__":
    sys.exit(main())
