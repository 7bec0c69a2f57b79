#!/usr/bin/env python3
"""Speed-up of `ivm` on several GPUs (issue 16/20) from bench/device/multi_gpu.sh's JSON
lines: a table (markdown) of search seconds, speed-up and efficiency against one GPU,
with whether the node totals equal one GPU's, and a plot of speed-up against GPUs as an
SVG file (no plotting library needed).

    python3 bench/multi_gpu.py RESULTS.jsonl [--plot out.svg]
"""
import argparse
import json
import re


def gpus_of(how):
    m = re.match(r"(gpus|mpi)=(.*)", how)
    if not m:
        return None
    kind, v = m.groups()
    if kind == "mpi":
        return int(v)
    return len(v.split(",")) if "," in v else int(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--plot", help="write an SVG: speed-up over one GPU against GPUs")
    o = ap.parse_args()
    rows = [json.loads(l) for l in open(o.results) if l.strip()]
    base = {}
    for r in rows:
        if r.get("how") == "gpus=1" and r.get("rc") == 0:
            base[r["case"]] = r
    series = {}
    print("| case | how | GPUs | search s | speed-up | efficiency | evaluated | totals = 1 GPU's |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        b = base.get(r["case"])
        g = gpus_of(r.get("how", ""))
        if not b or g is None or r.get("rc") != 0:
            continue
        t = r["time_s"]["search"]
        s = b["time_s"]["search"] / t if t > 0 else float("nan")
        same = r["nodes"] == b["nodes"] and r.get("solutions") == b.get("solutions")
        print(f'| {r["case"]} | {r["how"]} | {g} | {t:.2f} | {s:.2f}x | {s / g:.0%} | {r["nodes"]["evaluated"]:,} | '
              f'{"yes" if same else "NO"} |')
        series.setdefault((r["case"], r["how"].split("=")[0]), []).append((g, s))
    if o.plot:
        write_svg(o.plot, series)


def write_svg(path, series):
    top = max([g for pts in series.values() for g, _ in pts] + [2])
    w, h, m = 480, 360, 50
    x = lambda g: m + (g - 1) / (top - 1) * (w - 2 * m)
    y = lambda s: h - m - (s - 1) / (top - 1) * (h - 2 * m)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{x(1)}" y1="{y(1)}" x2="{x(top)}" y2="{y(top)}" stroke="grey" stroke-dasharray="4"/>',
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
           f'<line x1="{m}" y1="{h - m}" x2="{m}" y2="{m}" stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">GPUs</text>',
           f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" text-anchor="middle">speed-up over 1 GPU</text>']
    for g in range(1, top + 1):
        out.append(f'<text x="{x(g)}" y="{h - m + 16}" text-anchor="middle">{g}</text>')
        out.append(f'<text x="{m - 8}" y="{y(g) + 4}" text-anchor="end">{g}</text>')
    for k, ((case, how), pts) in enumerate(sorted(series.items())):
        c = colours[k % len(colours)]
        pts = sorted(pts)
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="' +
                   " ".join(f"{x(g):.1f},{y(s):.1f}" for g, s in pts) + '"/>')
        for g, s in pts:
            out.append(f'<circle cx="{x(g):.1f}" cy="{y(s):.1f}" r="3" fill="{c}"/>')
        label = f"{case} ({'--gpus' if how == 'gpus' else 'mpirun'})"
        out.append(f'<text x="{m + 10}" y="{m + 14 + 16 * k}" fill="{c}">{label}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
