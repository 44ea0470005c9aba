#!/usr/bin/env python3
"""Renders docs/images/fleet-outage.png from docs/data/fleet.csv (written by
`regstate-sim --world fleet --installs 10000 --seed 1 --series docs/data/fleet.csv`): the provider's token-endpoint
requests per second (10-s means) through the outage, with RegState's policy (blue) and without it (the baseline,
red), the outage shaded grey, a grid line every 1,000 s and every 10 req/s. A tiny PNG writer (zlib, no plotting
library), deterministic, so --check can compare bytes like Scripts/render-diagrams.sh does.
Usage: Scripts/render-fleet-plot.py [--check]"""
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "docs", "data", "fleet.csv")
IMAGE = os.path.join(ROOT, "docs", "images", "fleet-outage.png")
W, H, LEFT, RIGHT, TOP, BOTTOM = 960, 360, 40, 10, 10, 30


def read():
    outage, rows = None, []
    for line in open(DATA, encoding="utf-8"):
        if line.startswith("# outage"):
            span = line.split()[2].rstrip(";")
            outage = tuple(float(x) for x in span.split(".."))
        if line[0].isdigit():
            t, policy, baseline = line.strip().split(",")
            rows.append((float(t), float(policy), float(baseline)))
    return outage, rows


def render(outage, rows):
    pixels = [[(255, 255, 255)] * W for _ in range(H)]
    t_max = rows[-1][0] + 10
    y_max = max(10.0, max(max(p, b) for _, p, b in rows) * 1.05)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x_of(t):
        return LEFT + int(round(t / t_max * (plot_w - 1)))

    def y_of(v):
        return TOP + plot_h - 1 - int(round(v / y_max * (plot_h - 1)))

    def dot(x, y, color):
        if 0 <= x < W and 0 <= y < H:
            pixels[y][x] = color

    if outage:
        for x in range(x_of(outage[0]), x_of(outage[1]) + 1):
            for y in range(TOP, TOP + plot_h):
                pixels[y][x] = (225, 225, 225)
    for t in range(0, int(t_max) + 1, 1000):
        for y in range(TOP, TOP + plot_h):
            dot(x_of(t), y, (200, 200, 200))
    v = 0.0
    while v <= y_max:
        for x in range(LEFT, LEFT + plot_w):
            dot(x, y_of(v), (200, 200, 200))
        v += 10
    for x in range(LEFT, LEFT + plot_w):
        dot(x, TOP + plot_h - 1, (0, 0, 0))
    for y in range(TOP, TOP + plot_h):
        dot(LEFT, y, (0, 0, 0))

    def line(series, color):
        previous = None
        for t, value in series:
            point = (x_of(t), y_of(value))
            if previous:
                (x0, y0), (x1, y1) = previous, point
                steps = max(abs(x1 - x0), abs(y1 - y0), 1)
                for i in range(steps + 1):
                    x = x0 + (x1 - x0) * i // steps
                    y = y0 + (y1 - y0) * i // steps
                    dot(x, y, color)
                    dot(x, y + 1, color)
            previous = point

    line([(t, b) for t, _, b in rows], (200, 40, 40))
    line([(t, p) for t, p, _ in rows], (30, 80, 200))
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    check = "--check" in sys.argv[1:]
    image = render(*read())
    if check:
        with open(IMAGE, "rb") as committed:
            if committed.read() != image:
                print("stale: docs/images/fleet-outage.png (run Scripts/render-fleet-plot.py and commit it)", file=sys.stderr)
                sys.exit(1)
        print("fleet plot: up to date")
        return
    with open(IMAGE, "wb") as out:
        out.write(image)
    print(f"fleet plot: {IMAGE}")


main()
