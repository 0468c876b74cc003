#!/usr/bin/env bash
# flywheeld's benchmarks, every figure in one run (about 11 minutes; on demand: CI runs only --check-lists):
#
#   bash Tests/Benchmarks/run.sh [--check | --update-baseline | --flooding | --update-order | --check-lists] [BIN_DIR]
#
# Builds the shipped daemon and the flywheel tool as the package does (udev/release-build.sh)
# unless BIN_DIR, where they are, is given; strips a copy of the daemon, compiles the C tools with cc -O2 (the latency
# harness, the relay, the flooders, the allocation counter), measures (measure.py) and writes the
# generated tables of Tests/Benchmarks/BENCHMARKS.md (report.py). --check instead measures only the
# deterministic figures (instruction, syscall and allocation counts; about 5 minutes), compares them
# with baseline.json and exits 1 when one is more than 5 % worse; --update-baseline also writes them to baseline.json;
# --flooding measures the flooding neighbours alone (BENCH_FLOOD_ROUNDS rounds, default 3; about
# 3 minutes) and prints that section, for a quiet moment of the machine; --update-order rewrites
# udev/flywheeld.order, the functions the shipped link places together (order.py; about 1 minute),
# and relinks the daemon with it; --check-lists checks the two lists kept by hand against what the
# daemon runs (lists.py; about 3 minutes; CI runs it): that order, and HotPathTypes (no generic
# type's metadata built on the event path after READY). Installs
# valgrind, strace, gcc and binutils with apt-get when missing. BENCH_FIGURES=FILE keeps the raw
# figures (JSON); BENCH_CLIENTS="1 16" measures latency at other client counts (default 1 16 64 256).
set -euo pipefail
mode=write
case "${1:-}" in
    --check) mode=check; shift ;;
    --flooding) mode=flooding; shift ;;
    --update-baseline) mode=baseline; shift ;;
    --update-order) mode=order; shift ;;
    --check-lists) mode=lists; shift ;;
esac
bin=${1:+$(cd "$1" && pwd)}
cd "$(dirname "$0")/../.."

missing=()
for pair in valgrind:valgrind callgrind_control:valgrind strace:strace perl:perl cc:gcc strip:binutils python3:python3; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
if ((${#missing[@]})); then
    echo "installing ${missing[*]}" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ -z "$bin" ]]; then
    bin=$(bash udev/release-build.sh flywheeld flywheel | tail -n 1)
fi
for program in flywheeld flywheel; do
    [[ -x "$bin/$program" ]] || { echo "run.sh: $bin/$program is missing; build it or give its directory." >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=Tests/Benchmarks
if [[ "$mode" == order ]]; then
    [[ -z "${1:-}" ]] || { echo "run.sh: --update-order profiles and relinks this tree's own build; it takes no BIN_DIR." >&2; exit 2; }
    cc -O2 -o "$work/latency_client" "$here/latency_client.c"
    mkdir "$work/scratch"
    python3 "$here/order.py" "$bin/flywheeld" "$bin/flywheel" "$work" "$work/scratch" > "$work/flywheeld.order"
    mv "$work/flywheeld.order" udev/flywheeld.order
    bash udev/release-build.sh flywheeld > /dev/null  # relinks: the order is newer than the daemon
    echo "udev/flywheeld.order: $(wc -l < udev/flywheeld.order) functions; the daemon relinked with it"
    exit 0
fi
if [[ "$mode" == lists ]]; then
    cc -O2 -o "$work/latency_client" "$here/latency_client.c"
    mkdir "$work/scratch"
    python3 "$here/lists.py" "$bin/flywheeld" "$bin/flywheel" "$work" "$work/scratch" udev/flywheeld.order
    exit 0
fi
for tool in latency_client relay flood_client; do cc -O2 -o "$work/$tool" "$here/$tool.c"; done
cc -O2 -shared -fPIC -o "$work/alloc_count.so" "$here/alloc_count.c"
strip -o "$work/flywheeld" "$bin/flywheeld"
mkdir "$work/scratch"

only=()
[[ "$mode" != check ]] || only=(--counts-only)
[[ "$mode" != flooding ]] || only=(--flooding-only)
python3 "$here/measure.py" "$work/flywheeld" "$bin/flywheel" "$work" "$work/scratch" "${only[@]}" > "$work/figures.json"
[[ -z "${BENCH_FIGURES:-}" ]] || cp "$work/figures.json" "$BENCH_FIGURES"
case "$mode" in
    check) python3 "$here/report.py" "$work/figures.json" --check "$here/baseline.json" ;;
    flooding) python3 "$here/report.py" "$work/figures.json" --flooding ;;
    baseline) python3 "$here/report.py" "$work/figures.json" --write "$here/BENCHMARKS.md" --update-baseline "$here/baseline.json" ;;
    write) python3 "$here/report.py" "$work/figures.json" --write "$here/BENCHMARKS.md" --check "$here/baseline.json" || true ;;
esac
