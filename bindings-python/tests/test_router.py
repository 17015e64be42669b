"""Router and UriTemplate.match: the core's matcher through the binding."""

import pytest

from mcp_context import McpContextError, RegisterError, Router, TemplateError, UriTemplate


def test_match_decodes_and_round_trips_expand():
    t = UriTemplate("repo://{owner}/{repo}/issues/{number}")
    uri = t.expand(owner="acme", repo="web app", number=812)
    assert uri == "repo://acme/web%20app/issues/812"
    assert t.match(uri) == {"owner": "acme", "repo": "web app", "number": "812"}
    assert t.match("repo://acme/web/pulls/5") is None


def test_match_exploded_and_optional():
    assert UriTemplate("/files{/path*}").match("/files/a/b%20c") == {"path": ["a", "b c"]}
    q = UriTemplate("/search{?q,page}")
    assert q.match("/search?q=x") == {"q": "x"}
    assert q.match("/search") == {}


def test_unmatchable_template_raises_on_match_only():
    t = UriTemplate("{a}{b}")  # valid RFC 6570, ambiguous to match
    assert t.expand(a="1", b="2") == "12"
    with pytest.raises(TemplateError) as info:
        t.match("12")
    assert info.value.kind == "adjacent_variables"
    assert info.value.position == 1


def test_router_picks_the_most_specific():
    r = Router()
    assert r.add("repo://{owner}/{repo}") == 0
    assert r.add("repo://{owner}/{repo}/issues/{number}", "issue") == 1
    assert r.add("repo://acme/{repo}", {"any": "object"}) == 2
    assert len(r) == 3
    assert r.match("repo://acme/web/issues/7") == ("issue", {"owner": "acme", "repo": "web", "number": "7"})
    assert r.match("repo://acme/web") == ({"any": "object"}, {"repo": "web"})
    assert r.match("repo://other/web") == (0, {"owner": "other", "repo": "web"})
    assert r.match("nope://x") is None


@pytest.mark.parametrize(
    ("template", "kind"),
    [("repo://{a}/{b}", "indistinguishable"), ("repo://{x}/{y}/issues/{n}", "indistinguishable")],
)
def test_router_refuses_unreachable_templates(template, kind):
    r = Router()
    r.add("repo://{owner}/{repo}")
    r.add("repo://{owner}/{repo}/issues/{number}")
    with pytest.raises(RegisterError) as info:
        r.add(template)
    assert info.value.kind == kind
    assert isinstance(info.value, McpContextError) and isinstance(info.value, ValueError)
    assert len(r) == 2  # unchanged


def test_router_template_errors():
    r = Router()
    with pytest.raises(TemplateError) as info:
        r.add("repo://{owner")
    assert info.value.kind == "unclosed_expression"
    with pytest.raises(TemplateError):
        r.add("{a}{b}")
    assert len(r) == 0


def test_router_thousand_templates():
    r = Router()
    for i in range(1000):
        r.add(f"repo://{{owner}}/{{repo}}/tracker-{i}/{{number}}", i)
    assert r.match("repo://acme/web/tracker-999/812") == (999, {"owner": "acme", "repo": "web", "number": "812"})
    assert r.match("repo://acme/web/tracker-1000/812") is None


def test_non_utf8_capture_matches_nothing():
    assert UriTemplate("x://{a}").match("x://%FF") is None
    r = Router()
    r.add("x://{a}")
    assert r.match("x://%FF") is None
