#!/usr/bin/env python3
"""Renames the cases of uniffi's Swift error enums to lowerCamelCase, in place.

uniffi 0.32 spells the cases of `uniffi::Error` enums as Rust does (`case NotCacheable`),
unlike every other enum it generates (`case streamClosed`); Swift's API guidelines and this
package's other enums use lowerCamelCase (uniffi-rs issue 2262, unresolved upstream).
scripts/uniffi-gen.sh runs this on the generated MCPContext.swift before comparing or
writing it, so the output stays deterministic. Only each error enum's own declaration and
its FfiConverter are touched: the case declarations (`case NotCacheable`) and the
references to them (`.NotCacheable`).
"""
import re
import sys

path = sys.argv[1]
text = open(path, encoding="utf-8").read()

enums = re.findall(r"^enum (\w+): Swift\.Error\b", text, flags=re.M)
for name in enums:
    start = text.index(f"enum {name}: Swift.Error")
    # The region ends after the enum's lower function (`FfiConverterType<Name>_lower`).
    end_marker = f"func FfiConverterType{name}_lower("
    end = text.index(end_marker, start)
    end = text.index("\n}\n", end) + 3
    region = text[start:end]
    body_end = region.index("\n}\n")
    cases = re.findall(r"^\s*case ([A-Z]\w*)", region[:body_end], flags=re.M)
    for case in sorted(set(cases), key=len, reverse=True):
        lower = case[0].lower() + case[1:]
        region = re.sub(rf"(\bcase ){case}\b", rf"\g<1>{lower}", region)
        region = re.sub(rf"\.{case}\b", f".{lower}", region)
    text = text[:start] + region + text[end:]

open(path, "w", encoding="utf-8").write(text)
print(f"swift-error-cases: {len(enums)} error enums in lowerCamelCase", file=sys.stderr)
