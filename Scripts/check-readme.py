#!/usr/bin/env python3
"""Fails when README.md drifts, and says what it checked:
- every ```sh line parses, names a script that exists and a product that exists;
- the walkthrough transcript (the ``` block whose lines start with "$ ") is run and prints what the README shows,
  timestamps and the temporary directory aside (REGSTATE_BIN_DIR replaces .build/debug: CI builds elsewhere);
- every relative link in README.md, and in the repository's Markdown files it links to (followed on), resolves to a
  file or directory, and a #fragment into a Markdown file names one of its headings;
- none of those files refers the reader to what they cannot open: a seed document, an issue number, ../shared."""
import os
import re
import subprocess
import sys

ROOT = os.getcwd()
readme = open("README.md", encoding="utf-8").read()
package = open("Package.swift", encoding="utf-8").read()
products = set(re.findall(r'\.(?:executable|library)\(name: "([^"]+)"', package))
products |= set(re.findall(r'\.executableTarget\(name: "([^"]+)"', package))
failures = []
blocks = re.findall(r"^```(\w*)\n(.*?)^```", readme, re.M | re.S)

# ---- set-up commands ----
commands_checked = scripts_checked = products_checked = 0
for block in (body for language, body in blocks if language == "sh"):
    for line in block.splitlines():
        command = line.split("  #")[0].strip()
        if not command:
            continue
        commands_checked += 1
        if subprocess.run(["bash", "-n", "-c", command]).returncode != 0:
            failures.append(f"does not parse: {command}")
        for script in re.findall(r"(?:^|\s)((?:Scripts|\.ci|Tests/Peers)/[\w./-]+\.(?:sh|py)|\.ci/run)", command):
            scripts_checked += 1
            if not os.access(script, os.X_OK):
                failures.append(f"not an executable script: {script}")
        for product in re.findall(r"swift run (?:-c \w+ )?([\w-]+)", command):
            products_checked += 1
            if product not in products:
                failures.append(f"no such product: {product}")

# ---- the transcript ----
transcript = next((body for language, body in blocks if language == "" and body.startswith("$ ")), None)
transcript_commands = transcript_lines = 0
if transcript is None:
    failures.append("no transcript block")
else:
    commands, expected = [], []
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

    transcript_commands = len(commands)
    for i, command in enumerate(commands):
        got = normal(actual[i]) if i < len(actual) else "<not run>"
        transcript_lines += len(expected[i])
        if got != normal(expected[i]):
            failures.append(f"transcript drifted at `$ {command}`:\n--- README\n{normal(expected[i])}\n--- actual\n{got}")

# ---- links, followed through the repository's Markdown files ----
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
UNREADABLE = re.compile(r"\bseeds?\s+0\d\d\b|\bissues?\s+#?\d+\b|\.\./shared\b|/work/shared\b", re.I)


def anchors(path):
    """GitHub's heading anchors of a Markdown file."""
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.M | re.S)
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
        found.add(slug)
    return found


def strip_code(text):
    """The text outside fenced code blocks and inline code (a link in code is an example, not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


queue, seen, link_count, external = ["README.md"], set(), 0, 0
while queue:
    document = queue.pop()
    if document in seen:
        continue
    seen.add(document)
    text = open(document, encoding="utf-8").read()
    for number, line in enumerate(text.splitlines(), 1):
        for match in UNREADABLE.finditer(line):
            failures.append(f"{document}:{number}: refers to what a reader cannot open: '{match.group(0)}'")
    for match in LINK.finditer(strip_code(text)):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            external += 1
            continue
        link_count += 1
        path, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(document), path)) if path else document
        if not resolved.startswith("..") and os.path.exists(resolved):
            if fragment and resolved.endswith(".md") and fragment.lower() not in anchors(resolved):
                failures.append(f"{document}: link {target}: no heading '#{fragment}' in {resolved}")
            if resolved.endswith(".md") and resolved not in seen:
                queue.append(resolved)
        else:
            failures.append(f"{document}: link {target} does not resolve ({resolved})")

for failure in failures:
    print("README: " + failure, file=sys.stderr)
print(f"check-readme: {commands_checked} set-up commands parsed ({scripts_checked} scripts, {products_checked} products"
      f" found); transcript: {transcript_commands} commands run, {transcript_lines} output lines compared;"
      f" links: {link_count} relative links in {len(seen)} Markdown files resolve ({external} external links not"
      f" fetched); no seed, issue or ../shared references: {'FAILED' if failures else 'ok'}")
sys.exit(1 if failures else 0)
