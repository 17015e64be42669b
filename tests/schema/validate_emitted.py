#!/usr/bin/env python3
"""Validate every message the Rust tests emitted against the MCP 2026-07-28 schema.

Usage: validate_emitted.py SCHEMA_JSON EMITTED_DIR

EMITTED_DIR/<TypeName>/*.json is validated against `$defs/<TypeName>` with a JSON Schema
Draft 2020-12 validator, checking the `uri` and `uri-template` formats as the official
conformance harness does. Exits non-zero on any invalid file, on an unknown type name, or
when nothing was validated.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator


def main() -> int:
    schema = json.loads(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))
    emitted = pathlib.Path(sys.argv[2])
    defs = schema["$defs"]
    checked, failures, per_type = 0, [], {}
    for type_dir in sorted(p for p in emitted.iterdir() if p.is_dir()) if emitted.is_dir() else []:
        name = type_dir.name
        if name not in defs:
            failures.append(f"{name}: no such $defs entry in the schema")
            continue
        validator = Draft202012Validator(
            {"$schema": schema.get("$schema"), "$defs": defs, "$ref": f"#/$defs/{name}"},
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )
        for f in sorted(type_dir.glob("*.json")):
            instance = json.loads(f.read_text(encoding="utf-8"))
            errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
            checked += 1
            per_type[name] = per_type.get(name, 0) + 1
            for e in errors[:3]:
                failures.append(f"{f}: {'/'.join(map(str, e.path)) or '<root>'}: {e.message}")
    for line in failures:
        print("INVALID", line)
    print(f"schema validation: {checked} emitted messages of {len(per_type)} types, "
          f"{len(failures)} problems")
    if checked == 0:
        print("no emitted messages found: the Rust tests must write target/emitted/<Type>/*.json")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
