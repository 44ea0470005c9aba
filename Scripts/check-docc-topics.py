#!/usr/bin/env python3
"""Fails when a public top-level symbol of a module's symbol graph is not listed (``Symbol``) in its DocC catalog's
landing page Topics. Usage: check-docc-topics.py Module.symbols.json Sources/Module/Module.docc"""
import glob
import json
import re
import sys

graph = json.load(open(sys.argv[1], encoding="utf-8"))
top = sorted({s["pathComponents"][0] for s in graph["symbols"]
              if len(s["pathComponents"]) == 1 and s.get("accessLevel") in ("public", "open")})
text = "".join(open(f, encoding="utf-8").read() for f in glob.glob(sys.argv[2] + "/*.md"))
topics = text.split("## Topics", 1)[1] if "## Topics" in text else ""
listed = set(re.findall(r"``([A-Za-z_][A-Za-z0-9_]*)(?:[/(`])", topics))
missing = [name for name in top if name not in listed]
if missing:
    print(f"{sys.argv[2]}: public symbols missing from Topics: {', '.join(missing)}", file=sys.stderr)
    sys.exit(1)
print(f"{sys.argv[2]}: all {len(top)} public top-level symbols listed")
