#!/usr/bin/env python3
"""Prints the artifacts in dist/ as a Markdown table: file, tags (where it installs), size.

Usage: python3 scripts/dist-table.py [DIR]     (default dist/)

The tags come from each artifact itself: a wheel's file name (python-abi-platform), an npm
tarball's package.json (`os`, `cpu`, `libc`; none: any platform, with the WebAssembly
fallback), the Swift archive's name (linux-<arch>). Fails on a file it does not recognise and
on an empty directory, so a missing artifact shows.
"""
import json
import pathlib
import sys
import tarfile


def npm_tags(path):
    with tarfile.open(path) as t:
        pkg = json.load(t.extractfile("package/package.json"))
    parts = [",".join(pkg.get(k, [])) for k in ("os", "cpu", "libc") if pkg.get(k)]
    if parts:
        return "npm, " + " ".join(parts) + " (native addon)"
    optional = len(pkg.get("optionalDependencies", {}))
    return f"npm, any platform ({optional} optional platform packages; WebAssembly fallback)"


def tags(path):
    name = path.name
    if name.endswith(".whl"):
        python, abi, platform = name[: -len(".whl")].split("-")[-3:]
        return f"wheel, {python}-{abi}-{platform}"
    if name.endswith(".tgz"):
        return npm_tags(path)
    if name.startswith("mcp-context-primitives-swift-") and name.endswith(".tar.gz"):
        platform = name[: -len(".tar.gz")].split("-")[-2:]
        return f"Swift, {'-'.join(platform)}, static library + pkg-config + install.sh"
    if name.startswith("mcp_context_primitives-") and name.endswith(".tar.gz"):
        return "sdist (builds from source: needs Rust)"
    raise SystemExit(f"dist-table: unknown artifact {path}")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
    files = sorted(p for p in root.iterdir() if p.is_file())
    if not files:
        raise SystemExit(f"dist-table: no artifact in {root}")
    print("| artifact | tags | size |")
    print("| --- | --- | ---: |")
    for p in files:
        print(f"| {p.name} | {tags(p)} | {p.stat().st_size:,} B |")


if __name__ == "__main__":
    main()
