#!/usr/bin/env python3
"""Prints the criterion results of the last `cargo bench` run as a Markdown table.

For every benchmark group: each function's median time per iteration and its fastest sample,
and for each mcp-context function its ratio to every peer in the same group (ours / peer:
below 1 means we are faster), on medians and on fastest samples. The machines have 2 shared
cores: when other builds run, medians absorb their preemptions, while the fastest sample is
the least disturbed estimate. Report both.

Usage: python3 benches/ratios.py [path/to/target/criterion]
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
groups = {}
for bench in sorted(root.glob("**/new/benchmark.json")):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    sample = json.loads((bench.parent / "sample.json").read_text())
    fastest = min(t / n for t, n in zip(sample["times"], sample["iters"]))
    median = est["median"]["point_estimate"]
    groups.setdefault(meta["group_id"], {})[meta["function_id"]] = (median, fastest)

if not groups:
    sys.exit(f"no criterion results under {root}; run cargo bench first")


def ns(t):
    return f"{t / 1000:.2f} µs" if t >= 1000 else f"{t:.0f} ns"


print("| group | function | median | fastest | ours / peer: median (fastest) |")
print("| --- | --- | --- | --- | --- |")
for group, funcs in groups.items():
    peers = {f: t for f, t in funcs.items() if not f.startswith("mcp-context")}
    for f, (median, fastest) in funcs.items():
        ratios = ""
        if f.startswith("mcp-context"):
            ratios = ", ".join(
                f"{median / pm:.2f} ({fastest / pf:.2f}) {p}" for p, (pm, pf) in peers.items()
            )
        print(f"| {group} | {f} | {ns(median)} | {ns(fastest)} | {ratios} |")
