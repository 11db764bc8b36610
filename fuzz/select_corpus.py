"""Chooses the committed corpus of one fuzz target: from a libFuzzer merge control file (written
by `-merge=1 -use_counters=0 -merge_control_file=FILE` over a set-cover-minimized corpus, in
which each input lists the coverage edges it adds to the smaller inputs before it), keeps the
KEEP inputs that add the most edges and copies them into OUT (emptied first), so that the
committed corpus stays a few hundred small files while keeping most of the coverage.

Usage: python3 select_corpus.py CONTROL_FILE KEEP OUT
"""

import os
import shutil
import sys


def main() -> None:
    control, keep, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = open(control).read().splitlines()
    count = int(lines[0])
    files = lines[2 : 2 + count]
    edges = {}
    for line in lines[2 + count :]:
        if line.startswith("COV "):
            fields = line.split()
            edges[int(fields[1])] = len(fields) - 2
    chosen = [i for i in sorted(edges, key=lambda i: -edges[i])[:keep] if edges[i] > 0]
    # Inputs that once crashed a parser (named crash-*) stay whatever their coverage.
    kept_crashes = [f for f in os.listdir(out) if f.startswith("crash-")] if os.path.isdir(out) else []
    saved = {name: open(os.path.join(out, name), "rb").read() for name in kept_crashes}
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for index in chosen:
        shutil.copy(files[index], out)
    for name, data in saved.items():
        open(os.path.join(out, name), "wb").write(data)
    print(
        f"{out}: {len(chosen)} of {len(files)} inputs, "
        f"{sum(edges[i] for i in chosen)} of {sum(edges.values())} edges, {len(saved)} crash inputs"
    )


if __name__ == "__main__":
    main()
