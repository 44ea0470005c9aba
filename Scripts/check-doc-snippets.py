#!/usr/bin/env python3
"""Fails when a document shows simulator code that the test suite does not compile: every ```swift block that uses
SimulatedDevice in README.md and the two "Testing with the simulator" articles must be exactly a region of
Tests/RegStateSimulatorTests/DocumentedUsageTests.swift (between `// docs: NAME` and `// docs: end`, dedented).
The test DocumentedUsageTests checks the same from inside the suite; this check runs with the DocC build."""
import re
import sys

SOURCE = "Tests/RegStateSimulatorTests/DocumentedUsageTests.swift"
DOCUMENTS = ["README.md", "Sources/RegState/RegState.docc/TestingWithTheSimulator.md",
             "Sources/RegStateSimulator/RegStateSimulator.docc/TestingWithTheSimulator.md"]

regions, name, lines = {}, None, []
for line in open(SOURCE, encoding="utf-8").read().split("\n"):
    marker = re.match(r"\s*// docs: (\S+)\s*$", line)
    if marker and marker.group(1) == "end" and name:
        indent = len(lines[0]) - len(lines[0].lstrip(" "))
        regions[name] = "\n".join(l[min(indent, len(l) - len(l.lstrip(" "))):] for l in lines)
        name = None
    elif marker:
        name, lines = marker.group(1), []
    elif name:
        lines.append(line)

failures, shown = [], 0
for document in DOCUMENTS:
    blocks = [b for b in re.findall(r"```swift\n(.*?)\n```", open(document, encoding="utf-8").read(), re.S)
              if "SimulatedDevice" in b]
    if not blocks:
        failures.append(f"{document}: shows no simulator code")
    for block in blocks:
        shown += 1
        if block not in regions.values():
            failures.append(f"{document}: a swift block is not a region of {SOURCE}")
for failure in failures:
    print("docs: " + failure, file=sys.stderr)
print(f"docs: {shown} simulator code blocks in {len(DOCUMENTS)} documents are regions of {SOURCE}")
sys.exit(1 if failures else 0)
