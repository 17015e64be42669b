#!/usr/bin/env python3
"""Prints the criterion results of the last `cargo bench` run as a Markdown table.

For every benchmark group: each function's median time, and for each mcp-context function its
ratio to every peer in the same group (ours / peer: below 1 means we are faster). Medians, not
means, because the 2-core machines are shared and the mean takes every preemption.

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
    groups.setdefault(meta["group_id"], {})[meta["function_id"]] = est["median"]["point_estimate"]

if not groups:
    sys.exit(f"no criterion results under {root}; run cargo bench first")


def ns(t):
    return f"{t / 1000:.2f} µs" if t >= 1000 else f"{t:.0f} ns"


print("| group | function | median | " + "ratio to peers (ours / peer) |")
print("| --- | --- | --- | --- |")
for group, funcs in groups.items():
    peers = {f: t for f, t in funcs.items() if not f.startswith("mcp-context")}
    for f, t in funcs.items():
        ratios = ""
        if f.startswith("mcp-context"):
            ratios = ", ".join(f"{t / pt:.2f}× {p}" for p, pt in peers.items())
        print(f"| {group} | {f} | {ns(t)} | {ratios} |")
