#!/usr/bin/env python3
"""Extract the JSON examples of the spec digest into files named by their schema marker.

Usage: extract.py DIGEST.md OUT_DIR

Every ```json block preceded by `<!-- schema: X -->` becomes OUT_DIR/X/<n>.json (n counts
from 1 per type, in document order); `<!-- schema-2025-11-25: X -->` blocks go to
OUT_DIR/legacy-2025-11-25/X/<n>.json. Existing outputs are replaced.
"""
import json
import pathlib
import re
import shutil
import sys

MARKER = re.compile(r"<!-- (schema|schema-2025-11-25): (\w+) -->\s*```json\n(.*?)```", re.S)


def main() -> None:
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    text = src.read_text(encoding="utf-8")
    counts: dict[tuple[str, str], int] = {}
    for d in list(out.iterdir()) if out.exists() else []:
        if d.is_dir():
            shutil.rmtree(d)
    for kind, name, body in MARKER.findall(text):
        json.loads(body)  # every block must be valid JSON
        base = out / ("legacy-2025-11-25" if kind != "schema" else "") / name
        counts[(kind, name)] = counts.get((kind, name), 0) + 1
        base.mkdir(parents=True, exist_ok=True)
        (base / f"{counts[(kind, name)]}.json").write_text(body, encoding="utf-8")
    print(f"{sum(counts.values())} examples extracted")


if __name__ == "__main__":
    main()
