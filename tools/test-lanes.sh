#!/usr/bin/env bash
# `just test`'s suites in parallel lanes, one per core (CI has two): each argument is a lane,
# a space-separated list of recipes run one after another with `just --no-deps` (the `test`
# recipe has built everything they need first, once, so no two lanes build the same thing).
# A lane goes on after a failed recipe, so one run shows every failure; the run fails if any
# recipe did. Each recipe's output goes to target/test-lanes/RECIPE.log and is printed whole
# when it ends (never interleaved); a table of every recipe's time and result ends the run.
# QRGLUE_LANES=1 runs every lane's recipes in one lane, in order (a machine with one core).
set -uo pipefail
cd "$(dirname "$0")/.."

logs=target/test-lanes
rm -rf "$logs" && mkdir -p "$logs"
lanes=("$@")
if [ "${QRGLUE_LANES:-}" = 1 ]; then lanes=("$*"); fi

# Print one recipe's log whole, holding a lock so the lanes' outputs never interleave.
print_log() {
    local recipe=$1 status=$2 seconds=$3
    {
        flock 9
        echo "================ $recipe ($status, ${seconds} s) ================"
        cat "$logs/$recipe.log"
    } 9>"$logs/.print-lock"
}

run_lane() {
    local lane=$1 recipe start status
    shift
    for recipe in "$@"; do
        start=$SECONDS
        if just --no-deps "$recipe" >"$logs/$recipe.log" 2>&1; then status=passed; else status=FAILED; fi
        print_log "$recipe" "$status" $((SECONDS - start))
        echo "$lane $recipe $status $((SECONDS - start))" >>"$logs/results"
    done
}

start=$SECONDS
pids=()
for i in "${!lanes[@]}"; do
    # shellcheck disable=SC2086 # a lane is a word list of recipe names
    run_lane "lane-$((i + 1))" ${lanes[$i]} &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

# CI keeps only the head and the tail of a long output: each failed recipe's error lines come again
# here, just above the table, where the tail shows them.
while read -r _ recipe status _; do
    [ "$status" = FAILED ] || continue
    echo "================ $recipe FAILED: its last error lines ================"
    grep -E 'FAILED|Error|error[:[]|failed|[Aa]ssert|Traceback|panicked|exit (status|code)' "$logs/$recipe.log" | tail -n 15 | cut -c1-400
done <"$logs/results"
echo "================ just test: $((SECONDS - start)) s in ${#lanes[@]} lane(s) ================"
awk '{ printf "%-8s %-16s %-7s %6d s\n", $1, $2, $3, $4 }' "$logs/results"
if grep -q ' FAILED ' "$logs/results"; then
    echo "failed: $(grep ' FAILED ' "$logs/results" | cut -d' ' -f2 | tr '\n' ' ')(logs in $logs/)"
    exit 1
fi
