#!/usr/bin/env python3
"""Draws benches/scale.svg: time to route one URI against the number of templates, log-log.

Inputs: benches/scale.csv, written by `cargo bench -p mcp-context-benches --bench route_scale`
(ours, matchit, the regex scan), and the official SDKs' template loops, which have no router:
they try each template in turn. Their per-template cost comes from the binding benches, which
measured each SDK's loop among 1,000 templates (bindings-python/README.md: `mcp` 2.3.0
`ResourceTemplate.matches`, 203 routes/s; bindings-node/README.md: `@modelcontextprotocol/server`
2.4.0 `UriTemplate.match`, 435 routes/s). The SDK lines are *modelled* as n times that cost
(a loop over n templates whose target is last), not measured at every size.

Usage: python3 benches/plot.py [scale.csv] [scale.svg]   (no dependencies beyond Python 3)
"""
import csv
import math
import pathlib
import sys

here = pathlib.Path(__file__).parent
src = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "scale.csv"
dst = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else here / "scale.svg"

# Per-template cost of the SDK loops, in ns, from the binding benches (routes/s among 1,000).
SDK_PER_TEMPLATE = {
    "Python SDK loop (mcp 2.3.0, modelled)": 1e9 / 203 / 1000,
    "TypeScript SDK loop (server 2.4.0, modelled)": 1e9 / 435 / 1000,
}

rows = list(csv.DictReader(src.open()))
ns = [int(r["templates"]) for r in rows]
series = [
    ("mcp-context Router", [float(r["ours"]) for r in rows], "#d62728", None),
    ("matchit 0.8", [float(r["matchit"]) for r in rows], "#1f77b4", None),
    (
        "regex scan (regex 1)",
        [float(r["regex_scan"]) for r in rows],
        "#2ca02c",
        [r["regex_how"] == "modelled" for r in rows],
    ),
]
for (name, per), color in zip(SDK_PER_TEMPLATE.items(), ["#9467bd", "#8c564b"]):
    series.append((name, [per * n for n in ns], color, [True] * len(ns)))

W, H = 880, 480
L, R, T, B = 80, 330, 30, 60
x0, x1 = 0, math.log10(max(ns))
ys = [v for _, vals, _, _ in series for v in vals]
y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))


def px(n):
    return L + (math.log10(n) - x0) / (x1 - x0) * (W - L - R)


def py(t):
    return H - B - (math.log10(t) - y0) / (y1 - y0) * (H - T - B)


def label(t):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1)):
        if t >= scale:
            return f"{t / scale:g} {unit}"
    return f"{t:g} ns"


out = [
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
    f'font-family="sans-serif" font-size="12">',
    f'<rect width="{W}" height="{H}" fill="white"/>',
    f'<text x="{L}" y="18" font-size="14">Routing one URI among n templates (target registered last)</text>',
]
for e in range(int(x0), int(x1) + 1):
    x = px(10**e)
    out.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>')
    out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{10**e:,}</text>')
for e in range(y0, y1 + 1):
    y = py(10**e)
    out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{label(10**e)}</text>')
out.append(f'<text x="{(L + W - R) / 2}" y="{H - 20}" text-anchor="middle">templates in the table (log)</text>')
out.append(
    f'<text x="18" y="{(T + H - B) / 2}" text-anchor="middle" '
    f'transform="rotate(-90 18 {(T + H - B) / 2})">time per route (log)</text>'
)
out.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#444"/>')
for k, (name, vals, color, modelled) in enumerate(series):
    pts = [(px(n), py(v)) for n, v in zip(ns, vals)]
    dashed = ' stroke-dasharray="6 4"' if modelled and all(modelled) else ""
    path = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(pts))
    out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"{dashed}/>')
    for i, (x, y) in enumerate(pts):
        hollow = modelled is not None and modelled[i]
        fill = "white" if hollow else color
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{fill}" stroke="{color}"/>')
    ly = T + 16 + k * 20
    out.append(f'<line x1="{W - R + 12}" y1="{ly - 4}" x2="{W - R + 36}" y2="{ly - 4}" stroke="{color}" stroke-width="2"{dashed}/>')
    out.append(f'<text x="{W - R + 42}" y="{ly}">{name}</text>')
ly = T + 16 + len(series) * 20 + 10
out.append(f'<text x="{W - R + 12}" y="{ly}" fill="#555">filled: measured; hollow: modelled</text>')
out.append("</svg>")
dst.write_text("\n".join(out) + "\n")
print(f"wrote {dst}")
