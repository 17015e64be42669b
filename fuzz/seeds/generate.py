#!/usr/bin/env python3
"""Writes the committed seed corpora from the RFC 6570 suite in tests/vectors/rfc6570/.

template_parse/: one template per file (spec examples and negative tests).
template_expand/: the template on line 1, then one line per distinct variable name in the
format fuzz_targets/template_expand.rs documents (@list, =assoc pairs, ! undefined).

Run from the repo root: python3 fuzz/seeds/generate.py (idempotent; rewrites both folders).
"""
import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "rfc6570"
SEEDS = ROOT / "fuzz" / "seeds"


def names(template):
    seen = []
    for body in re.findall(r"\{([^{}]*)\}", template):
        body = body.lstrip("+#./;?&")
        for spec in body.split(","):
            name = spec.split(":")[0].rstrip("*")
            if name and name not in seen:
                seen.append(name)
    return seen


def scalar(v):
    return v if isinstance(v, str) else json.dumps(v)


def line(v):
    if v is None:
        return "!"
    if isinstance(v, list):
        return "@" + "|".join(scalar(x) for x in v)
    if isinstance(v, dict):
        return "=" + "|".join(f"{scalar(k)}|{scalar(x)}" for k, x in v.items())
    return scalar(v)


def cases(name):
    for group in json.loads((VECTORS / name).read_text()).values():
        for case in group["testcases"]:
            yield case[0], group.get("variables", {})


def write(folder, items):
    path = SEEDS / folder
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    for i, text in enumerate(dict.fromkeys(items)):
        (path / f"seed-{i:03}").write_text(text)


templates = [t for t, _ in cases("spec-examples.json")]
templates += [t for t, _ in cases("negative-tests.json")]
templates.append("repo://{owner}/{repo}/issues/{number}{?fields*}")
write("template_parse", templates)

expand = []
for t, variables in cases("spec-examples.json"):
    expand.append("\n".join([t] + [line(variables.get(n)) for n in names(t)]))
expand.append("repo://{owner}/{repo}/issues/{number}{?fields*}\nacme\nweb app\n812\n=state|open|sort|recent first")
expand.append("{+path:6}/caf\u00e9{#x,list*}\n/foo/bar\n\u00e9t\u00e9 %41 %zz\n@a|\u20ac|")
write("template_expand", expand)
