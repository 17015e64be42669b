#!/usr/bin/env python3
"""Prints the section sizes of the footprint images (ELF: .text, .rodata, .data, .bss, via
`readelf -S`) or, with --wasm, a module's size raw and gzipped.

Usage: python3 footprint/sizes.py IMAGE...   |   python3 footprint/sizes.py --wasm MODULE
"""
import gzip
import pathlib
import subprocess
import sys


def elf(path):
    out = subprocess.run(["readelf", "-S", "-W", path], check=True, capture_output=True, text=True)
    sizes = {}
    for line in out.stdout.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 5 and parts[1] in (".text", ".rodata", ".data", ".bss", ".vector_table"):
            sizes[parts[1]] = int(parts[5], 16)
    return sizes


def kib(n):
    return f"{n / 1024:.1f} KiB"


if sys.argv[1:2] == ["--wasm"]:
    for p in sys.argv[2:]:
        raw = pathlib.Path(p).read_bytes()
        print(f"{pathlib.Path(p).name}: {len(raw)} bytes ({kib(len(raw))}), "
              f"gzipped {len(gzip.compress(raw, 9))} bytes ({kib(len(gzip.compress(raw, 9)))})")
else:
    print(f"{'image':<16} {'.text':>10} {'.rodata':>10} {'.data':>8} {'.bss':>8}")
    for p in sys.argv[1:]:
        s = elf(p)
        print(f"{pathlib.Path(p).name:<16} {s.get('.text', 0):>10} {s.get('.rodata', 0):>10} "
              f"{s.get('.data', 0):>8} {s.get('.bss', 0):>8}   (.text {kib(s.get('.text', 0))})")
