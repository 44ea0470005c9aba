#!/usr/bin/env python3
"""Re-applies a list of access demotions (`public` -> `package`) by symbol, not by line, so it can be run again on a
tree that other changes moved around. Usage: Scripts/demote.py [SPEC] [--check]   (default Scripts/demote.txt)

A spec line is one of (`#` starts a comment):
  type   MODULE NAME            the type NAME declared in Sources/MODULE, every `public` declaration in its body, and
                                every `public` declaration in an `extension NAME` (or `NAME.Nested`) anywhere in Sources
  member MODULE TYPE REGEX      each `public` declaration directly in TYPE's body or its extensions (in Sources/MODULE)
                                whose text after `public` matches REGEX (Python, searched)
  global MODULE REGEX           each top-level `public` declaration in Sources/MODULE whose text after `public` matches
A line that finds nothing to demote and nothing already demoted is an error (the code moved: fix the spec).
With --check nothing is written; the exit status says whether something is still to demote.
"""
import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ACCESS = re.compile(r"^(\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*)(public|package)(\s)")
DECL = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|"
                  r"indirect|nonisolated)\s+)*(struct|enum|class|actor|protocol|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")


def code_mask(text):
    """For each character, whether it is code (not in a comment or a string literal)."""
    mask = bytearray(len(text))
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group(0))
            i += hashes
            triple = text.startswith('"""', i)
            close = ('"""' if triple else '"') + "#" * hashes
            i += 3 if triple else 1
            while i < n and not text.startswith(close, i):
                if text[i] == "\\" and hashes == 0:
                    if text.startswith("\\(", i):  # interpolation: skip to its matching paren
                        depth, i = 1, i + 2
                        while i < n and depth:
                            depth += {"(": 1, ")": -1}.get(text[i], 0)
                            i += 1
                        continue
                    i += 2
                    continue
                i += 1
            i += len(close)
        else:
            mask[i] = 1
            i += 1
    return mask


class Source:
    def __init__(self, path):
        self.path = path
        self.text = open(path, encoding="utf-8").read()
        self.lines = self.text.split("\n")
        self.original = list(self.lines)  # what offsets into self.text refer to
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        mask = code_mask(self.text)
        # Brace depth at the start of each line, and matching braces.
        self.match = {}
        stack = []
        for i, c in enumerate(self.text):
            if not mask[i]:
                continue
            if c == "{":
                stack.append(i)
            elif c == "}" and stack:
                self.match[stack.pop()] = i
        self.depth = []
        d, k = 0, 0
        for idx, start in enumerate(self.starts):
            while k < start:
                if mask[k] and self.text[k] == "{":
                    d += 1
                elif mask[k] and self.text[k] == "}":
                    d -= 1
                k += 1
            self.depth.append(d)
        self.changed = False

    def line_of(self, offset):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def bodies(self, name, kinds):
        """(decl line, first body line, last body line, body depth) of each declaration of `name` of the kinds."""
        found = []
        for idx, line in enumerate(self.original):
            m = DECL.match(line)
            if not m or m.group(1) not in kinds:
                continue
            declared = m.group(2)
            if not (declared == name or (m.group(1) == "extension" and declared.startswith(name + "."))):
                continue
            brace = self.text.find("{", self.starts[idx] + m.end())
            while brace >= 0 and brace not in self.match:
                brace = self.text.find("{", brace + 1)
            if brace < 0:
                continue
            end = self.match[brace]
            found.append((idx, self.line_of(brace), self.line_of(end), self.depth[idx] + 1))
        return found

    def demote(self, idx):
        """Turns `public` into `package` on line idx; returns 'demoted', 'already' or None."""
        m = ACCESS.match(self.lines[idx])
        if not m:
            return None
        if m.group(2) == "package":
            return "already"
        self.lines[idx] = m.group(1) + "package" + m.group(3) + self.lines[idx][m.end():]
        self.changed = True
        return "demoted"

    def save(self):
        if self.changed:
            open(self.path, "w", encoding="utf-8").write("\n".join(self.lines))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    spec = args[0] if args else os.path.join(ROOT, "Scripts", "demote.txt")
    files = {}

    def sources(module=None):
        pattern = os.path.join(ROOT, "Sources", module or "*", "**", "*.swift")
        for path in sorted(glob.glob(pattern, recursive=True)):
            if path not in files:
                files[path] = Source(path)
            yield files[path]

    errors, demoted, types, member_names = [], [], [], set()
    for number, raw in enumerate(open(spec, encoding="utf-8"), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("member") else raw.strip()
        if not line or line.startswith("#"):
            continue
        kind, module, *rest = line.split(None, 3 if line.startswith("member") else 2)
        hits = {"demoted": 0, "already": 0}

        def note(src, idx, result, owner=None):
            if result:
                hits[result] += 1
                if result == "demoted":
                    entry = f"{os.path.relpath(src.path, ROOT)}:{idx + 1}: {src.lines[idx].strip()[:110]}"
                    demoted.append(entry)
                m = re.search(r"package\s+(?:(?:static|final|nonisolated|mutating|override)\s+)*(?:func|var|let)\s+(\w+)",
                              src.lines[idx])
                if owner and m:
                    member_names.add(owner + "/" + m.group(1))

        if kind == "type":
            name = rest[0]
            types.append(name)
            declared = False
            for src in sources(module):
                for decl, first, last, _ in src.bodies(name, {"struct", "enum", "class", "actor", "protocol"}):
                    declared = True
                    note(src, decl, src.demote(decl))
                    for idx in range(first, last + 1):
                        note(src, idx, src.demote(idx) if idx != decl else None)
            if not declared:
                errors.append(f"{spec}:{number}: no declaration of {name} in Sources/{module}")
            for src in sources():
                for decl, first, last, _ in src.bodies(name, {"extension"}):
                    for idx in range(first, last + 1):
                        note(src, idx, src.demote(idx))
        elif kind == "member":
            typename, regex = rest[0], re.compile(rest[1])
            for src in sources(module):
                for decl, first, last, depth in src.bodies(typename, {"struct", "enum", "class", "actor", "protocol",
                                                                     "extension"}):
                    for idx in range(first, last + 1):
                        m = ACCESS.match(src.lines[idx])
                        if m and src.depth[idx] == depth and idx != decl and regex.search(src.lines[idx][m.end():]):
                            note(src, idx, src.demote(idx), typename)
        elif kind == "global":
            regex = re.compile(rest[0])
            for src in sources(module):
                for idx, text in enumerate(src.lines):
                    m = ACCESS.match(text)
                    if m and src.depth[idx] == 0 and regex.search(text[m.end():]) and not DECL.match(text):
                        note(src, idx, src.demote(idx))
        else:
            errors.append(f"{spec}:{number}: unknown directive {kind}")
            continue
        if not hits["demoted"] and not hits["already"]:
            errors.append(f"{spec}:{number}: nothing matches: {line}")

    # Links to what is no longer public: DocC cannot resolve them (its symbol graphs are the public ones), so the
    # catalogs' Topics drop the type and the prose and the doc comments of what stays public say it as code.
    names = set(types) | member_names
    if names:
        pattern = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
        link = re.compile(r"``(" + pattern + r")((?:[/(][^`]*)?)``")
        topic = re.compile(r"^- ``(" + "|".join(re.escape(t) for t in types) + r")``\s*$") if types else None

        def unlink(text):
            return link.sub(lambda m: "`" + (m.group(1) + m.group(2)).replace("/", ".") + "`", text)

        for path in sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "*.md"))):
            old = open(path, encoding="utf-8").read()
            lines = [l for l in old.split("\n") if not (topic and topic.match(l))]
            # A Topics group left empty goes too.
            kept = []
            for i, l in enumerate(lines):
                if l.startswith("### ") and "## Topics" in "\n".join(kept):
                    rest = [x for x in lines[i + 1:] if x.strip()]
                    if not rest or rest[0].startswith("#"):
                        while kept and not kept[-1].strip() and len(kept) > 1 and not kept[-2].strip():
                            kept.pop()
                        continue
                kept.append(l)
            lines = kept
            new = unlink("\n".join(lines))
            if new != old:
                demoted.append(f"{os.path.relpath(path, ROOT)}: links to what is no longer public")
                if not check:
                    open(path, "w", encoding="utf-8").write(new)
        for src in sources():
            owners = {m.group(2).split(".")[0] for m in map(DECL.match, src.original) if m}
            relative = sorted({n.split("/", 1)[1] for n in member_names if n.split("/", 1)[0] in owners},
                              key=len, reverse=True)
            near = re.compile(r"``(" + "|".join(map(re.escape, relative)) + r")((?:\([^`]*)?)``") if relative else None
            block = []
            for idx, text in enumerate(src.lines):
                if text.lstrip().startswith("///"):
                    block.append(idx)
                    continue
                if block and not text.lstrip().startswith("@"):
                    # A doc comment DocC renders: of a declaration that stays public, or a case of a public enum.
                    m = ACCESS.match(text)
                    rendered = bool(m and m.group(2) == "public")
                    if not m and re.match(r"^\s*(?:indirect\s+)?case\s", text):
                        j = idx - 1
                        while j >= 0 and not (src.depth[j] == src.depth[idx] - 1 and DECL.match(src.original[j])):
                            j -= 1
                        rendered = j >= 0 and bool(re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s", src.lines[j]))
                    if rendered:
                        for b in block:
                            new = unlink(src.lines[b])
                            if near:
                                new = near.sub(lambda m: "`" + m.group(1) + m.group(2) + "`", new)
                            if new != src.lines[b]:
                                src.lines[b] = new
                                src.changed = True
                                demoted.append(f"{os.path.relpath(src.path, ROOT)}:{b + 1}: link unlinked")
                    block = []

    for entry in demoted:
        print(entry)
    if not check:
        for src in files.values():
            src.save()
    for error in errors:
        print(error, file=sys.stderr)
    print(f"demote: {len(demoted)} declarations {'to demote' if check else 'demoted'}, {len(errors)} errors",
          file=sys.stderr)
    sys.exit(1 if errors or (check and demoted) else 0)


if __name__ == "__main__":
    main()
