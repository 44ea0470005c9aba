#!/usr/bin/env python3
"""Reads the API breaks `swift package diagnose-api-breaking-changes` reported (one a line, the text after
"API breakage: ") on standard input and fails unless each is accounted for in CHANGELOG.md's Unreleased section: a
bullet that names the symbol in backticks (`Type.member`, `member`, or for a break of the type itself `Type`) and
has a `*Migration:*` note. Usage (Scripts/check-api.sh): check-api-changelog.py VERSION RECORDED_COUNT"""
import re
import sys

version, recorded = sys.argv[1], sys.argv[2]
changelog = open("CHANGELOG.md", encoding="utf-8").read()
unreleased = changelog.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
bullets = [b for b in re.split(r"\n(?=- )", unreleased) if "*Migration:*" in b]
code = [" ".join(re.findall(r"`([^`]*)`", b)) for b in bullets]


def names(line):
    """The names a CHANGELOG bullet may use for the symbol a break line is about."""
    kind, symbol = line.split(" ", 2)[:2]
    parts = symbol.split(".")
    if kind == "accessor":          # accessor Type.property.Set(): the property
        parts = parts[:-1]
    found = [".".join(parts), parts[-1]]
    if len(parts) > 1 and kind in ("struct", "enum", "class", "protocol", "typealias"):
        found.append(parts[0])
    return found


breaks = [line.strip() for line in sys.stdin if line.strip()]
missing = []
for line in breaks:
    pattern = [re.compile(r"(?<![\w.])" + re.escape(n) + r"(?![\w])") for n in names(line)]
    if not any(p.search(c) for c in code for p in pattern):
        missing.append(line)
for line in missing:
    print(f"api: not in CHANGELOG.md Unreleased with a *Migration:* note: {line}", file=sys.stderr)
print(f"api: public API of RegState against {version}: {len(breaks)} breaks reported beyond the {recorded} recorded"
      f" before this check; {len(breaks) - len(missing)} listed under Unreleased with a migration note,"
      f" {len(missing)} not: {'FAILED' if missing else 'ok'}")
sys.exit(1 if missing else 0)
