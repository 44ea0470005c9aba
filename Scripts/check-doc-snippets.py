#!/usr/bin/env python3
"""The Swift code the documents show, checked two ways.

1. Fails when a document shows simulator code that the test suite does not compile: every ```swift block that uses
   SimulatedDevice in README.md and the two "Testing with the simulator" articles must be exactly a region of
   Tests/RegStateSimulatorTests/DocumentedUsageTests.swift (between `// docs: NAME` and `// docs: end`, dedented).
   The test DocumentedUsageTests checks the same from inside the suite; this check runs with the DocC build.

2. With `--package DIR` (Scripts/check-snippets.sh): writes every ```swift block of README.md and of every DocC
   article (Sources/*/*.docc/*.md) into scratch packages under DIR, as a user would paste it, for the caller to build:
   DIR/linux depends on this checkout by path (and builds Examples/ too, through a symlink); DIR/apple on Tests/AppleTypeCheck (the Apple-only code compiled against
   the stubs of the Apple symbols it uses), with `import RegState` read as that module's name. The line before a
   block may say what it is, in an HTML comment (GitHub and DocC show none of it):
     (nothing)                      a whole program: the main.swift of an executable of its own
     <!-- snippet: test -->         the body of an `async throws` Swift Testing test, with RegState, RegStateTesting,
                                    Testing and Foundation imported
     <!-- snippet: body, given: CODE -->
                                    the body of an `async throws` function; CODE (Swift, `;`-separated) declares what
                                    the block uses without declaring it, and is what a reader needs around it
     <!-- snippet: apple ... -->    the same kinds, compiled against the Apple stubs (Apple-only API)
     <!-- snippet: fragment — WHY -->
                                    not compiled (a Package.swift entry, say); WHY says what it needs around it
"""
import glob
import os
import re
import sys

SOURCE = "Tests/RegStateSimulatorTests/DocumentedUsageTests.swift"
DOCUMENTS = ["README.md", "Sources/RegState/RegState.docc/TestingWithTheSimulator.md",
             "Sources/RegStateSimulator/RegStateSimulator.docc/TestingWithTheSimulator.md"]
BLOCK = re.compile(r"(?:^(<!-- snippet:(.*?)-->)\n)?^```swift\n(.*?)\n^```", re.M | re.S)


def simulator_regions():
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
    return regions


def check_simulator_regions():
    regions, failures, shown = simulator_regions(), [], 0
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
    return not failures


def indent(code, by="    "):
    return "\n".join(by + line if line else line for line in code.split("\n"))


def write_packages(directory):
    root = os.getcwd()
    documents = ["README.md"] + sorted(glob.glob("Sources/*/*.docc/*.md"))
    packages = {"linux": {"programs": [], "bodies": [], "tests": []}, "apple": {"programs": [], "bodies": [], "tests": []}}
    fragments, failures = 0, []
    for document in documents:
        text = open(document, encoding="utf-8").read()
        for number, match in enumerate(BLOCK.finditer(text), 1):
            marker, code = (match.group(2) or "").strip(), match.group(3)
            where = f"{document} block {number}"
            if marker.startswith("fragment"):
                if len(marker) < len("fragment") + 8:
                    failures.append(f"{where}: a fragment must say what it needs around it")
                fragments += 1
                continue
            platform = "linux"
            if marker.startswith("apple"):
                platform, marker = "apple", marker[len("apple"):].strip()
                code = re.sub(r"^import RegState$", "import RegStateAppleTypeCheck", code, flags=re.M)
            label = f"// {where}\n"
            if marker == "":
                packages[platform]["programs"].append(label + code + "\n")
            elif marker == "test":
                packages[platform]["tests"].append(label + code)
            elif marker.startswith("body"):
                given = marker.partition("given:")[2].strip()
                packages[platform]["bodies"].append((label, given, code))
            else:
                failures.append(f"{where}: unknown snippet marker '{marker}'")
    for platform, kinds in packages.items():
        base = os.path.join(directory, platform)
        os.makedirs(base, exist_ok=True)
        for old in glob.glob(os.path.join(base, "Sources", "*")):
            if os.path.islink(old):
                continue
            for path in glob.glob(os.path.join(old, "*")):
                os.remove(path)
        module = "RegStateAppleTypeCheck" if platform == "apple" else "RegState"
        products = ([f'.product(name: "{p}", package: "AppleTypeCheck")'
                     for p in ["RegStateAppleTypeCheck", "RegStateWebAuthentication"]] if platform == "apple"
                    else [f'.product(name: "{p}", package: "RegState")'
                          for p in ["RegState", "RegStateTesting", "RegStateLoopback", "RegStateOngoingAccess",
                                    "RegStateWebAuthentication", "RegStateURLSession"]])
        dependency = (f'.package(path: "{root}/Tests/AppleTypeCheck")' if platform == "apple"
                      else f'.package(name: "RegState", path: "{root}")')
        targets = []
        for index, program in enumerate(kinds["programs"], 1):
            name = f"Program{index}"
            os.makedirs(os.path.join(base, "Sources", name), exist_ok=True)
            open(os.path.join(base, "Sources", name, "main.swift"), "w").write(program)
            targets.append(f'.executableTarget(name: "{name}", dependencies: deps, swiftSettings: settings)')
        if kinds["bodies"]:
            os.makedirs(os.path.join(base, "Sources", "Bodies"), exist_ok=True)
            for index, (label, given, code) in enumerate(kinds["bodies"], 1):
                # A body's own imports go to the top of its file, where Swift allows them.
                imports = "".join(line + "\n" for line in code.split("\n") if line.startswith("import "))
                code = "\n".join(line for line in code.split("\n") if not line.startswith("import ")).strip("\n")
                # What the block declares is the reader's to use after it: used here, so that it is no warning.
                uses = "".join(f"\n_ = {name}" for name in re.findall(r"^(?:let|var) (\w+)", code, re.M))
                code += uses
                open(os.path.join(base, "Sources", "Bodies", f"Body{index}.swift"), "w").write(
                    f"{label}import Foundation\nimport {module}\n{imports}\nfunc body{index}() async throws {{\n"
                    f"{indent(chr(10).join(s.strip() for s in given.split(';') if s.strip()))}\n{indent(code)}\n}}\n")
            targets.append('.target(name: "Bodies", dependencies: deps, swiftSettings: settings)')
        if kinds["tests"]:
            os.makedirs(os.path.join(base, "Tests", "SnippetTests"), exist_ok=True)
            for path in glob.glob(os.path.join(base, "Tests", "SnippetTests", "*")):
                os.remove(path)
            imports = f"import Foundation\nimport {module}\n" + ("import RegStateTesting\n" if platform == "linux" else "")
            for index, code in enumerate(kinds["tests"], 1):
                open(os.path.join(base, "Tests", "SnippetTests", f"Test{index}.swift"), "w").write(
                    f"{imports}import Testing\n\n@Test func snippet{index}() async throws {{\n{indent(code)}\n}}\n")
            targets.append('.testTarget(name: "SnippetTests", dependencies: deps, swiftSettings: settings)')
        if platform == "linux":
            # Examples/ (app code that uses only the public API) builds here too, from a symlink to its sources, so
            # CI compiles the products once for both instead of once per package.
            link = os.path.join(base, "Sources", "RegStateExamples")
            if os.path.islink(link):
                os.remove(link)
            elif os.path.isdir(link):
                os.rmdir(link)
            os.symlink(os.path.join(root, "Examples", "Sources", "RegStateExamples"), link)
            targets.append('.target(name: "RegStateExamples", dependencies: deps, '
                           'swiftSettings: settings + [.enableUpcomingFeature("ExistentialAny")])')
        open(os.path.join(base, "Package.swift"), "w").write(f"""// swift-tools-version: 6.0
// Written by Scripts/check-doc-snippets.py --package: the documents' Swift blocks, as a user would paste them.
import PackageDescription

let deps: [Target.Dependency] = [{", ".join(products)}]
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]
let package = Package(
    name: "Snippets{platform.capitalize()}",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [{dependency}],
    targets: [
        {(","+chr(10)+"        ").join(targets)}
    ]
)
""")
        counts = {k: len(v) for k, v in kinds.items()}
        print(f"snippets: {base}: {counts['programs']} programs, {counts['bodies']} bodies, {counts['tests']} tests")
    print(f"snippets: {fragments} fragments not compiled (each says what it needs)")
    for failure in failures:
        print("snippets: " + failure, file=sys.stderr)
    return not failures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--package":
        sys.exit(0 if write_packages(sys.argv[2]) else 1)
    sys.exit(0 if check_simulator_regions() else 1)
