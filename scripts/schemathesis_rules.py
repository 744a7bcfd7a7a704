"""Schemathesis hooks: the rules between properties that Understudy's documents state as `x-understudy-rules`.

JSON Schema cannot relate two properties, so Schemathesis generates bodies that break those rules and takes the
mock's refusal for a valid request refused. This drops generated bodies that break a rule (positive cases must
meet the whole document; negative cases still break the schema itself). The document is read from
UNDERSTUDY_DOCUMENT. Loaded with SCHEMATHESIS_HOOKS=schemathesis_rules (scripts/ on PYTHONPATH).
"""
import json
import os
from datetime import date, datetime

import schemathesis


def _collect(node, rules):
    if isinstance(node, dict):
        rules.extend(node.get("x-understudy-rules", []))
        for value in node.values():
            _collect(value, rules)
    elif isinstance(node, list):
        for value in node:
            _collect(value, rules)
    return rules


with open(os.environ["UNDERSTUDY_DOCUMENT"]) as document:
    RULES = _collect(json.load(document), [])


def _instant(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value).timestamp() if "T" in value else date.fromisoformat(value).toordinal()
    except ValueError:
        return None


def _keeps(rule, members):
    """Whether an object keeps a rule (`{"after": [a, b]}`, `{"requires": [a, [b, c]]}`), as the mock judges it."""
    if "after" in rule:
        later, earlier = (members.get(name) for name in rule["after"])
        if later is None or earlier is None:
            return True
        a, b = _instant(later), _instant(earlier)
        if (a is None or b is None) and isinstance(later, str) and isinstance(earlier, str):
            # Python reads no year 0 (`0000-01-01T00:00:00Z`); same-shaped instants compare as text.
            return len(later) != len(earlier) or later > earlier
        return a is None or b is None or type(a) is not type(b) or a > b
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


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    """No finding: refusing a body that breaks a rule (the coverage phase sends bodies filter_body never saw), or a
    VideGreniers event whose generated categoryId names no category (the state decides whether one exists)."""
    if not _valid(case.body):
        return False
    names_category = isinstance(case.body, dict) and case.body.get("categoryId") is not None
    return not (names_category and response.status_code == 400 and "categoryId: no category" in response.text)
