"""mcp_context against the official Python SDK (mcp 2.3.0) and PyPI uritemplate 4.2.0.

A script, not a timed test: run it in a venv with a *release* build of the binding and the
two peers installed (see bindings-python/README.md, "Benchmarks"):

    python bindings-python/bench/bench_templates.py

Three workloads, each in one process run, best of several rounds of `timeit`:

* expand ``repo://{owner}/{repo}/issues/{number}`` with three values;
* match one URI against that template (SDK: ``UriTemplate.match`` and
  ``ResourceTemplate.matches``; mcp_context: ``UriTemplate.match``);
* route one URI among 1,000 templates (SDK: the resource manager's way, ``matches`` on
  each template in registration order until one matches; mcp_context: ``Router.match``).

Prints a Markdown table of operations per second and the ratio to the SDK.
"""

import sys
import timeit

import mcp_context
import uritemplate
from mcp.server.mcpserver.resources.templates import ResourceTemplate
from mcp.shared.uri_template import UriTemplate as SdkTemplate

TEMPLATE = "repo://{owner}/{repo}/issues/{number}"
VALUES = {"owner": "acme", "repo": "web app", "number": "812"}
URI = "repo://acme/web%20app/issues/812"
ROUTES = 1_000


def issue(owner: str, repo: str, number: str) -> str:
    return f"# Issue {number} in {owner}/{repo}"


def route_template(i: int) -> str:
    return f"repo://{{owner}}/{{repo}}/tracker-{i}/{{number}}"


ROUTE_URI = "repo://acme/web/tracker-999/812"  # the last one registered: a full scan


def rate(stmt, number: int) -> float:
    """Operations per second, best of 5 rounds."""
    best = min(timeit.repeat(stmt, number=number, repeat=5))
    return number / best


def main() -> None:
    ours = mcp_context.UriTemplate(TEMPLATE)
    sdk = SdkTemplate.parse(TEMPLATE)
    sdk_resource = ResourceTemplate.from_function(issue, TEMPLATE, name="issue")
    peer = uritemplate.URITemplate(TEMPLATE)

    # Same answers first: a benchmark of different work measures nothing.
    assert ours.expand(VALUES) == sdk.expand(VALUES) == peer.expand(VALUES) == URI
    assert ours.match(URI) == sdk.match(URI) == sdk_resource.matches(URI) == VALUES

    router = mcp_context.Router()
    sdk_routes = []
    for i in range(ROUTES):
        router.add(route_template(i))
        sdk_routes.append(ResourceTemplate.from_function(issue, route_template(i), name=f"t{i}"))

    def sdk_route(uri=ROUTE_URI, routes=sdk_routes):
        for i, t in enumerate(routes):
            params = t.matches(uri)
            if params is not None:
                return i, params
        return None

    expected = (999, {"owner": "acme", "repo": "web", "number": "812"})
    assert router.match(ROUTE_URI) == sdk_route() == expected

    rows = [
        ("expand", "SDK UriTemplate.expand", rate(lambda: sdk.expand(VALUES), 50_000)),
        ("expand", "uritemplate 4.2.0 expand", rate(lambda: peer.expand(VALUES), 50_000)),
        ("expand", "mcp_context UriTemplate.expand", rate(lambda: ours.expand(VALUES), 200_000)),
        ("match", "SDK UriTemplate.match", rate(lambda: sdk.match(URI), 50_000)),
        ("match", "SDK ResourceTemplate.matches", rate(lambda: sdk_resource.matches(URI), 50_000)),
        ("match", "mcp_context UriTemplate.match", rate(lambda: ours.match(URI), 200_000)),
        ("route among 1,000", "SDK ResourceTemplate.matches loop", rate(sdk_route, 50)),
        ("route among 1,000", "mcp_context Router.match", rate(lambda: router.match(ROUTE_URI), 200_000)),
    ]
    baseline = {
        "expand": rows[0][2],
        "match": rows[3][2],
        "route among 1,000": rows[6][2],
    }
    print(f"Python {sys.version.split()[0]}, mcp_context {getattr(mcp_context, '__version__', '')}".rstrip(", "))
    print()
    print("| workload | implementation | ops/s | vs SDK |")
    print("| --- | --- | ---: | ---: |")
    for workload, name, ops in rows:
        print(f"| {workload} | {name} | {ops:,.0f} | {ops / baseline[workload]:,.1f}x |")


if __name__ == "__main__":
    main()
