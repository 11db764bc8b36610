#!/usr/bin/env bash
# Runs the fuzz targets one after the other (nightly Rust, cargo-fuzz), each for RUNS
# executions (default 1,000,000) or MAX_TIME seconds (default 3600), whichever comes first,
# growing the working corpus in corpus-work/TARGET from the committed one; then minimizes
# what the run found into the committed corpus/TARGET: libFuzzer's -set_cover_merge=1 keeps
# inputs that cover every edge, and select_corpus.py the KEEP (default 60) of those that add
# the most edges, so that the committed corpus stays small. A crash
# stops the script and leaves the input in artifacts/TARGET/; commit it under corpus/TARGET/
# once the parser is fixed.
#
# Usage: fuzz/run.sh [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-1000000}
max_time=${MAX_TIME:-3600}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(board weights pieces replay checkpoint strategy part serve_body stackrabbit_query nes_trace)
fi
mkdir -p logs
for target in "${targets[@]}"; do
    mkdir -p "corpus-work/$target" "corpus/$target"
    # Inputs up to 4 KiB, but a trace's run line alone is about 3 KB (its rules in words), so a
    # trace with one short game needs 12 KB or more.
    max_len=4096
    if [ "$target" = nes_trace ]; then
        max_len=32768
    fi
    nice cargo +nightly fuzz run -O "$target" "corpus-work/$target" "corpus/$target" -- \
        -runs="$runs" -max_total_time="$max_time" -timeout=10 -max_len="$max_len" \
        2> "logs/$target.log"
    grep -E '^Done|^#[0-9]+ *DONE' "logs/$target.log" | tail -1
    # Minimize: the inputs that cover every edge, then the KEEP that add the most edges.
    rm -rf "corpus-min/$target" "corpus-min/$target.control"
    mkdir -p "corpus-min/$target" corpus-min/empty
    nice cargo +nightly fuzz run -O "$target" "corpus-min/$target" "corpus/$target" \
        "corpus-work/$target" -- -set_cover_merge=1 -use_counters=0 2> "logs/$target-merge.log"
    nice cargo +nightly fuzz run -O "$target" corpus-min/empty "corpus-min/$target" -- \
        -merge=1 -use_counters=0 -merge_control_file="corpus-min/$target.control" \
        2>> "logs/$target-merge.log"
    rm -rf corpus-min/empty
    python3 select_corpus.py "corpus-min/$target.control" "${KEEP:-60}" "corpus/$target"
done
