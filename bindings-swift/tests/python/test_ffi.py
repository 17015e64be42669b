"""Drives the Swift binding's C ABI through uniffi's Python backend (same scaffolding symbols,
same lowering/lifting of records, enums, errors and objects), without a Swift toolchain.

Run by scripts/swift-test.sh; the generated module and the cdylib are in UNIFFI_PY_DIR
(default: target/uniffi/python, written by scripts/uniffi-gen.sh).
"""

import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, os.environ.get("UNIFFI_PY_DIR", str(ROOT / "target" / "uniffi" / "python")))

import mcp_context_ffi as m  # noqa: E402

VECTORS = ROOT / "tests" / "vectors" / "rfc6570"
SUITE = ["spec-examples.json", "spec-examples-by-section.json", "extended-tests.json", "negative-tests.json"]


def scalar(v):
    return v if isinstance(v, str) else json.dumps(v)


def to_value(v):
    if isinstance(v, list):
        return m.TemplateValue.LIST([scalar(x) for x in v])
    if isinstance(v, dict):  # json keeps the file's order, which expansion must keep too
        return m.TemplateValue.DICT([m.TemplatePair(key=k, value=scalar(x)) for k, x in v.items()])
    return m.TemplateValue.STRING(scalar(v))


def suite_cases():
    for name in SUITE:
        doc = json.loads((VECTORS / name).read_text(encoding="utf-8"))
        for group, body in doc.items():
            variables = {k: to_value(v) for k, v in body["variables"].items() if v is not None}
            for template, expected in body["testcases"]:
                yield name, group, template, expected, variables


def test_rfc6570_suite_through_the_ffi():
    passed, failures = 0, []
    for name, group, template, expected, variables in suite_cases():
        try:
            got = m.UriTemplate(template).expand(variables)
        except m.TemplateError:
            got = None
        ok = (
            (expected is False and got is None)
            or (isinstance(expected, str) and got == expected)
            or (isinstance(expected, list) and got in expected)
        )
        if ok:
            passed += 1
        else:
            failures.append(f"[{name} / {group}] {template!r}: expected {expected!r}, got {got!r}")
    assert failures == []
    assert passed == 270


@pytest.mark.parametrize(
    "source, kind, offset",
    [
        ("a{b", m.TemplateParseErrorKind.UNCLOSED_EXPRESSION, 1),
        ("x}", m.TemplateParseErrorKind.UNEXPECTED_BRACE, 1),
        ("ab{}", m.TemplateParseErrorKind.EMPTY_EXPRESSION, 3),
        ("{=a}", m.TemplateParseErrorKind.RESERVED_OPERATOR, 1),
        ("{var:0}", m.TemplateParseErrorKind.INVALID_PREFIX, 5),
        ("a b", m.TemplateParseErrorKind.INVALID_LITERAL, 1),
        ("%zz", m.TemplateParseErrorKind.INVALID_PERCENT_ENCODING, 0),
    ],
)
def test_parse_errors_carry_kind_and_byte_offset(source, kind, offset):
    with pytest.raises(m.TemplateError.Parse) as info:
        m.UriTemplate(source)
    assert (info.value.kind, info.value.byte_offset) == (kind, offset)


def test_expand_keeps_dict_order_and_reports_prefix_on_composite():
    t = m.UriTemplate("/s{?q,tags,keys*}")
    keys = m.TemplateValue.DICT([m.TemplatePair(key="semi", value=";"), m.TemplatePair(key="dot", value=".")])
    got = t.expand({"q": m.TemplateValue.STRING("café"), "tags": m.TemplateValue.LIST(["a", "b"]), "keys": keys})
    assert got == "/s?q=caf%C3%A9&tags=a,b&semi=%3B&dot=."
    with pytest.raises(m.TemplateError.PrefixOnComposite) as info:
        m.UriTemplate("ab{x:2}").expand({"x": m.TemplateValue.LIST(["y"])})
    assert info.value.byte_offset == 3


def test_variables_and_source():
    t = m.UriTemplate("notes://{project}/{id:4}{?tags*}")
    assert t.source() == "notes://{project}/{id:4}{?tags*}"
    got = [(v.name, v.modifier, v.byte_offset) for v in t.variables()]
    assert got == [
        ("project", None, 9),
        ("id", m.TemplateModifier.PREFIX(max_length=4), 19),
        ("tags", m.TemplateModifier.EXPLODE(), 26),
    ]


def test_error_codes():
    codes = {c.code: c for c in m.known_error_codes()}
    assert len(codes) == 9
    assert codes[-32601].http_status() == 404
    assert codes[-32022].name() == "Unsupported protocol version"
    assert codes[-32002].may_mean_not_found()
    assert m.ErrorCode(code=-32000).name() is None
    assert m.protocol_version() == "2026-07-28"
