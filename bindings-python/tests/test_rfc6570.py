"""The official RFC 6570 suite (uritemplate-test) driven through the Python binding.

Positive cases must expand exactly (or to one of the listed alternatives); every negative
case must raise TemplateError when parsed or expanded. JSON numbers are passed as Python
int/float, which the binding converts with str().
"""

import json

import pytest

from conftest import RFC6570
from mcp_context import TemplateError, UriTemplate


def cases(name):
    doc = json.loads((RFC6570 / name).read_text(encoding="utf-8"))
    for group, body in doc.items():
        for i, (template, expected) in enumerate(body["testcases"]):
            yield pytest.param(body["variables"], template, expected, id=f"{group}#{i}")


def check(variables, template, expected):
    if expected is False:
        with pytest.raises(TemplateError):
            UriTemplate(template).expand(variables)
        return
    got = UriTemplate(template).expand(variables)
    alternatives = expected if isinstance(expected, list) else [expected]
    assert got in alternatives


@pytest.mark.parametrize(("variables", "template", "expected"), list(cases("spec-examples.json")))
def test_spec_examples(variables, template, expected):
    check(variables, template, expected)


@pytest.mark.parametrize(
    ("variables", "template", "expected"), list(cases("spec-examples-by-section.json"))
)
def test_spec_examples_by_section(variables, template, expected):
    check(variables, template, expected)


@pytest.mark.parametrize(("variables", "template", "expected"), list(cases("extended-tests.json")))
def test_extended(variables, template, expected):
    check(variables, template, expected)


@pytest.mark.parametrize(("variables", "template", "expected"), list(cases("negative-tests.json")))
def test_negative(variables, template, expected):
    assert expected is False
    check(variables, template, expected)


def test_suite_sizes():
    # The suite as copied (tests/vectors/rfc6570/README.md); a shrunken file would hide cases.
    counts = {n: len(list(cases(n))) for n in [
        "spec-examples.json", "spec-examples-by-section.json",
        "extended-tests.json", "negative-tests.json"]}
    assert counts["spec-examples.json"] == 64
    assert sum(counts.values()) == 270
