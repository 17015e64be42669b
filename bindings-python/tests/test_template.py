"""UriTemplate: construction, variables, expansion with every accepted value type."""

import collections
import pickle
import types

import pytest

from mcp_context import TemplateError, UriTemplate


def test_source_variables_repr():
    t = UriTemplate("repo://{owner}/{repo}/issues{?state,labels}{&owner}")
    assert t.source == "repo://{owner}/{repo}/issues{?state,labels}{&owner}"
    assert t.variables == ["owner", "repo", "state", "labels"]  # template order, each once
    assert repr(t) == "UriTemplate('repo://{owner}/{repo}/issues{?state,labels}{&owner}')"
    assert str(t) == t.source
    assert UriTemplate("no/vars").variables == []


def test_variables_keep_modifiers_out():
    assert UriTemplate("{/path*}{;id:3}").variables == ["path", "id"]


def test_expand_strings_kwargs_and_mapping():
    t = UriTemplate("repo://{owner}/{repo}")
    assert t.expand(owner="acme", repo="web app") == "repo://acme/web%20app"
    assert t.expand({"owner": "acme", "repo": "web"}) == "repo://acme/web"
    # keywords win over the mapping
    assert t.expand({"owner": "acme", "repo": "web"}, repo="api") == "repo://acme/api"
    # a name that is not a valid Python identifier goes through the mapping
    assert UriTemplate("{last.name}").expand({"last.name": "Doe"}) == "Doe"


def test_expand_numbers_through_str():
    t = UriTemplate("/page/{n}{?lat,big}")
    assert t.expand(n=5, lat=-122.427, big=10**30) == "/page/5?lat=-122.427&big=" + str(10**30)
    assert t.expand(n=1.5) == "/page/1.5"


def test_expand_lists_tuples_and_mappings():
    t = UriTemplate("/s{?tags,keys*}")
    assert t.expand(tags=["a", "b c"], keys={"x": "1", "y": 2}) == "/s?tags=a,b%20c&x=1&y=2"
    assert t.expand(tags=("a", 3)) == "/s?tags=a,3"
    ordered = collections.OrderedDict([("b", "2"), ("a", "1")])
    assert t.expand(keys=ordered) == "/s?b=2&a=1"
    proxy = types.MappingProxyType({"k": "v"})  # any Mapping, not only dict
    assert t.expand(keys=proxy) == "/s?k=v"
    assert t.expand(proxy) == "/s"  # as the top-level mapping too ("k" is not a template var)


def test_undefined_values():
    t = UriTemplate("x{?a,b,c}")
    assert t.expand() == "x"
    assert t.expand(a=None, b=[], c={}) == "x"  # None, empty list and empty dict are undefined
    assert t.expand({"a": "1"}, a=None) == "x"  # a keyword None removes a mapping value
    assert t.expand(a="") == "x?a="


def test_unicode_round_trip():
    t = UriTemplate("café/{var}")
    assert t.expand(var="日本") == "caf%C3%A9/%E6%97%A5%E6%9C%AC"


@pytest.mark.parametrize(
    "value",
    [True, object(), b"bytes", ["nested", ["list"]], [{"a": "b"}], {"k": ["v"]}, {"k": None}],
)
def test_bad_value_types_raise_type_error(value):
    with pytest.raises(TypeError):
        UriTemplate("{v}").expand(v=value)


def test_bad_mapping_arguments():
    t = UriTemplate("{v}")
    with pytest.raises(TypeError):
        t.expand(["v", "x"])  # not a mapping
    with pytest.raises(TypeError):
        t.expand({1: "x"})  # non-str variable name
    with pytest.raises(TypeError):
        UriTemplate(42)  # type: ignore[arg-type]


def test_lone_surrogate_is_a_python_error_not_a_crash():
    with pytest.raises(UnicodeEncodeError):
        UriTemplate("{v}").expand(v="\udc00")
    with pytest.raises(UnicodeEncodeError):
        UriTemplate("\udc00{v}")


def test_equality_hash_pickle():
    a, b = UriTemplate("a{b}"), UriTemplate("a{b}")
    assert a == b and hash(a) == hash(b)
    assert a != UriTemplate("a{c}")
    assert a != "a{b}"
    assert {a: 1}[b] == 1
    c = pickle.loads(pickle.dumps(a))
    assert c == a and c.expand(b="x") == "ax"


def test_immutable():
    t = UriTemplate("{a}")
    with pytest.raises(AttributeError):
        t.source = "{b}"  # type: ignore[misc]


def test_prefix_on_list_is_a_template_error():
    with pytest.raises(TemplateError) as info:
        UriTemplate("x{list:3}").expand(list=["a"])
    assert info.value.kind == "prefix_on_composite"
    assert info.value.position == 2


def test_large_template_and_values():
    names = [f"v{i}" for i in range(500)]
    t = UriTemplate("".join("{" + n + "}" for n in names))
    assert t.variables == names
    assert t.expand({n: "x" for n in names}) == "x" * 500
    assert UriTemplate("{v}").expand(v="a" * 100_000) == "a" * 100_000
