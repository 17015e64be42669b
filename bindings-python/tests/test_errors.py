"""The exception hierarchy, TemplateError kinds and positions, ErrorCode."""

import json

import pytest

import mcp_context
from mcp_context import ErrorCode, McpContextError, TemplateError, UriTemplate


def test_hierarchy():
    assert issubclass(McpContextError, Exception)
    assert issubclass(TemplateError, McpContextError)
    assert issubclass(TemplateError, ValueError)
    assert TemplateError.__module__ == McpContextError.__module__ == "mcp_context"


@pytest.mark.parametrize(
    ("source", "kind", "position"),
    [
        ("{var", "unclosed_expression", 0),
        ("a}", "unexpected_brace", 1),
        ("{a{b}}", "unexpected_brace", 2),
        ("x{}", "empty_expression", 2),
        ("{=var}", "reserved_operator", 1),
        ("{ a}", "invalid_var_name", 1),
        ("{a b}", "invalid_modifier", 2),
        ("{a,}", "empty_var_name", 3),
        ("{var:0}", "invalid_prefix", 5),
        ("{var:10000}", "invalid_prefix", 5),
        ("{var*3}", "invalid_modifier", 5),
        ("{var:3*}", "invalid_modifier", 6),
        ("a b", "invalid_literal", 1),
        ("%zz", "invalid_percent_encoding", 0),
    ],
)
def test_parse_errors_carry_kind_and_position(source, kind, position):
    with pytest.raises(TemplateError) as info:
        UriTemplate(source)
    err = info.value
    assert err.kind == kind
    assert err.position == position
    assert err.byte_offset == position  # ASCII: the two units agree
    assert str(err).startswith("invalid URI template: ")
    assert f"at byte {position}" in str(err)


def test_position_is_a_str_index_for_non_ascii():
    source = "/café/日本/{ a}"
    with pytest.raises(TemplateError) as info:
        UriTemplate(source)
    err = info.value
    assert err.kind == "invalid_var_name"
    assert (err.position, err.byte_offset) == (10, 15)
    assert source[err.position] == " "
    assert source.encode()[err.byte_offset:err.byte_offset + 1] == b" "
    assert err.byte_offset > err.position


def test_catchable_as_value_error_and_base():
    with pytest.raises(ValueError):
        UriTemplate("{")
    with pytest.raises(McpContextError):
        UriTemplate("{")


def test_hostile_templates_never_crash():
    # Every failure is a TemplateError; no PanicException, no other exception type.
    hostile = ["{" * 10_000, "}" * 10_000, "{" + "a" * 100_000, "{a:" + "9" * 50 + "}",
               "\x00{a}", "{\x00}", "%", "%4", "{a:1" , "{+}", "{.a*:3}", "{a,,b}"]
    for source in hostile:
        try:
            UriTemplate(source)
        except TemplateError as err:
            assert 0 <= err.position <= len(source)


def test_error_code_is_an_int_enum():
    assert ErrorCode.PARSE_ERROR == -32700
    assert ErrorCode.INVALID_REQUEST == -32600
    assert ErrorCode.METHOD_NOT_FOUND == -32601
    assert ErrorCode.INVALID_PARAMS == -32602
    assert ErrorCode.INTERNAL_ERROR == -32603
    assert ErrorCode.HEADER_MISMATCH == -32020
    assert ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY == -32021
    assert ErrorCode.UNSUPPORTED_PROTOCOL_VERSION == -32022
    assert ErrorCode.LEGACY_RESOURCE_NOT_FOUND == -32002
    assert len(ErrorCode) == 9
    assert ErrorCode(-32602) is ErrorCode.INVALID_PARAMS
    assert isinstance(ErrorCode.INVALID_PARAMS, int)
    assert json.dumps({"code": ErrorCode.INVALID_PARAMS}) == '{"code": -32602}'
    assert ErrorCode.__module__ == "mcp_context"
    with pytest.raises(ValueError):
        ErrorCode(1)


def test_protocol_version():
    assert mcp_context.PROTOCOL_VERSION == "2026-07-28"
