#!/usr/bin/env python3
"""Fails when README.md drifts: every ```sh line must parse, name a script that exists and a product that exists; the
walkthrough transcript (the ``` block whose lines start with "$ ") is run and must print what the README shows,
timestamps and the temporary directory aside. REGSTATE_BIN_DIR replaces .build/debug (CI builds elsewhere)."""
import os
import re
import subprocess
import sys

readme = open("README.md", encoding="utf-8").read()
package = open("Package.swift", encoding="utf-8").read()
products = set(re.findall(r'\.(?:executable|library)\(name: "([^"]+)"', package))
products |= set(re.findall(r'\.executableTarget\(name: "([^"]+)"', package))
failures = []
blocks = re.findall(r"^```(\w*)\n(.*?)^```", readme, re.M | re.S)

for block in (body for language, body in blocks if language == "sh"):
    for line in block.splitlines():
        command = line.split("  #")[0].strip()
        if not command:
            continue
        if subprocess.run(["bash", "-n", "-c", command]).returncode != 0:
            failures.append(f"does not parse: {command}")
        for script in re.findall(r"(?:^|\s)((?:Scripts|\.ci)/[\w./-]+)", command):
            if not os.access(script, os.X_OK):
                failures.append(f"not an executable script: {script}")
        for product in re.findall(r"swift run (?:-c \w+ )?([\w-]+)", command):
            if product not in products:
                failures.append(f"no such product: {product}")

transcript = next((body for language, body in blocks if language == "" and body.startswith("$ ")), None)
if transcript is None:
    failures.append("no transcript block")
else:
    commands, expected, current = [], [], None
    for line in transcript.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:].split("  #")[0].rstrip())
            expected.append([])
        elif expected:
            expected[-1].append(line)
    bin_dir = os.environ.get("REGSTATE_BIN_DIR")
    script = ""
    for i, command in enumerate(commands):
        if bin_dir:
            command = command.replace(".build/debug", bin_dir)
        script += f"echo '@@{i}'\n{command} 2>&1\n"
    env = dict(os.environ, HOME=os.environ.get("HOME", "/root"))
    env.pop("REGSTATE_HOME", None)
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env).stdout
    actual = [part.splitlines()[1:] for part in re.split(r"^(?=@@\d+$)", out, flags=re.M) if part.startswith("@@")]

    def normal(lines):
        text = "\n".join(line.rstrip() for line in lines)
        text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<time>", text)
        text = re.sub(r"/tmp/tmp\.\w+", "/tmp/tmp.X", text)
        return text.strip()

    for i, command in enumerate(commands):
        got = normal(actual[i]) if i < len(actual) else "<not run>"
        if got != normal(expected[i]):
            failures.append(f"transcript drifted at `$ {command}`:\n--- README\n{normal(expected[i])}\n--- actual\n{got}")

for failure in failures:
    print("README: " + failure, file=sys.stderr)
sys.exit(1 if failures else 0)
