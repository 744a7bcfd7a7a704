"""Schemathesis hooks: the rules that Understudy's documents state as `x-understudy-rules`.

JSON Schema cannot relate two properties, nor two parameters of one request, so Schemathesis generates requests
that break those rules and takes the mock's refusal for a valid request refused. Two kinds are honoured:
- rules between the members of one body object (`{"after": [a, b]}`, `{"requires": [a, [b, c]]}`), on schemas;
- rules between values in different places of a request, on operations, named by OpenAPI runtime expressions
  (`{"notBefore": ["$request.query.endDate", "$request.query.startDate"]}`,
  `{"equal": ["$request.body#/id", "$request.path.id"]}`).
Generated bodies that break a rule are dropped, and generated requests are made to keep the rules between their
values (positive cases must meet the whole document; negative cases still break the schema itself). The document is read from UNDERSTUDY_DOCUMENT. Loaded with
SCHEMATHESIS_HOOKS=schemathesis_rules (scripts/ on PYTHONPATH).
"""
import json
import os
import re
import uuid
from datetime import date, datetime

import schemathesis


def _collect(node, rules):
    if isinstance(node, dict):
        rules.extend(rule for rule in node.get("x-understudy-rules", []) if "after" in rule or "requires" in rule)
        for value in node.values():
            _collect(value, rules)
    elif isinstance(node, list):
        for value in node:
            _collect(value, rules)
    return rules


with open(os.environ["UNDERSTUDY_DOCUMENT"]) as document:
    RULES = _collect(json.load(document), [])


# Python reads no year before 1 (`0000-01-01T00:00:00Z`), nor an offset that takes year 1 below it. Years before 1000
# are read 2000 years later (five whole 400-year Gregorian cycles, 730485 days) and moved back.
_CYCLES = 730485


def _instant(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    shift = 0
    if len(value) >= 4 and value[:4].isdigit() and int(value[:4]) < 1000:
        value, shift = "%04d" % (int(value[:4]) + 2000) + value[4:], _CYCLES
    try:
        if "T" in value:
            return datetime.fromisoformat(value).timestamp() - shift * 86400
        return date.fromisoformat(value).toordinal() - shift
    except (ValueError, OverflowError):
        return None


def _later(later, earlier):
    """Whether `later` is after `earlier` (dates, date-times, numbers); None when they do not compare."""
    a, b = _instant(later), _instant(earlier)
    return None if a is None or b is None or type(a) is not type(b) else a > b


def _keeps(rule, members):
    """Whether an object keeps a rule (`{"after": [a, b]}`, `{"requires": [a, [b, c]]}`), as the mock judges it."""
    if "after" in rule:
        later, earlier = (members.get(name) for name in rule["after"])
        return later is None or earlier is None or _later(later, earlier) is not False
    trigger, required = rule["requires"]
    # `is`, not `in (None, False)`: 0 and 0.0 equal False in Python, and a longitude of 0 is set.
    if members.get(trigger) is None or members.get(trigger) is False:
        return True
    return all(members.get(name) is not None for name in required)


def _valid(node):
    if isinstance(node, dict):
        names = set(node)
        for rule in RULES:
            involved = rule["after"] if "after" in rule else [rule["requires"][0], *rule["requires"][1]]
            if names & set(involved) and not _keeps(rule, node):
                return False
        return all(_valid(value) for value in node.values())
    if isinstance(node, list):
        return all(_valid(value) for value in node)
    return True


@schemathesis.hook
def filter_body(ctx, body):
    return _valid(body)


def _place(case, expression):
    """Where a runtime expression points in a case (`$request.query.endDate`, `$request.body#/id`): the dict that
    holds the value and its key, or (None, None)."""
    for prefix, values in (("$request.path.", case.path_parameters), ("$request.query.", case.query)):
        if expression.startswith(prefix) and values is not None:
            return values, expression[len(prefix):]
    if expression.startswith("$request.body#/") and isinstance(case.body, dict):
        return case.body, expression[len("$request.body#/"):].replace("~1", "/").replace("~0", "~")
    return None, None


def _read(case, expression):
    """The value a runtime expression names in a case, or None."""
    values, key = _place(case, expression)
    return None if values is None else values.get(key)


def _same(value, other):
    if isinstance(value, str) and isinstance(other, str):
        try:
            return uuid.UUID(value) == uuid.UUID(other)
        except ValueError:
            return value == other
    return value == other


def _keeps_request_rule(rule, case):
    """Whether a case keeps a rule between its values (`notBefore`, `equal`), as the mock judges it."""
    keyword = "notBefore" if "notBefore" in rule else "equal"
    value, other = (_read(case, expression) for expression in rule[keyword])
    if value is None or other is None:
        return True
    if keyword == "equal":
        return _same(value, other)
    return _later(other, value) is not True


def _case_valid(case):
    rules = case.operation.definition.raw.get("x-understudy-rules", [])
    return _valid(case.body) and all(_keeps_request_rule(rule, case) for rule in rules)


def _write(case, expression, value):
    values, key = _place(case, expression)
    if values is not None:
        values[key] = value


@schemathesis.hook
def map_case(ctx, case):
    """Makes a generated case keep its operation's rules between values, as a generator that knew them would: an
    `equal` takes the second value for the first (random UUIDs never meet), a `notBefore` swaps the two."""
    for rule in case.operation.definition.raw.get("x-understudy-rules", []):
        if _keeps_request_rule(rule, case):
            continue
        first, second = rule.get("equal") or rule["notBefore"]
        value, other = _read(case, first), _read(case, second)
        _write(case, first, other)
        if "notBefore" in rule:
            _write(case, second, value)
    return case


# The mocks' refusals that depend on the state, not on the request: 400s whose message names what the state holds.
STATE_REFUSALS = re.compile(
    "|".join(
        [
            r"categoryId: no category",  # VideGreniers: the event's category must exist
            r"status: only draft events can be published",  # VideGreniers: publishing twice
            r"status: a \w+ event cannot be (cancelled|updated)",  # VideGreniers: cancelling twice, editing a past one
            r"You have already joined activity",  # fitness: joining twice
            r"You are not a participant of activity",  # fitness: leaving twice
            r"The creator cannot leave their own activity",  # fitness: the creator is the caller
            r"Activity \w+ is (already completed|full)",  # fitness: completing twice, a full activity
        ]
    )
)


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    """No finding: refusing a request that breaks a rule (the coverage phase sends cases the filters never saw), or a
    refusal that depends on the state (STATE_REFUSALS): it would be an answer to any request in that state."""
    if not _case_valid(case):
        return False
    return not (response.status_code == 400 and STATE_REFUSALS.search(response.text))
