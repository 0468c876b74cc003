#!/usr/bin/env bash
# Decode throughput: Flywheel's decoder against a straightforward C table decoder compiled with
# -O2, on the same in-memory random walk, measured in one run. Prints both and the ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=${1:-50000000}
rounds=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/table_decoder" Tests/Benchmarks/table_decoder.c
swift build -c release --product flywheel-bench >&2
bench=$(swift build -c release --show-bin-path)/flywheel-bench
c=$("$work/table_decoder" "$samples" "$rounds")
swift=$("$bench" decode "$samples" "$rounds")
echo "$c"
echo "$swift"
python3 - "$c" "$swift" <<'PY'
import json, sys
c, s = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert c["quarter_steps"] == s["quarter_steps"] and c["valid"] == s["valid"], "the decoders disagree"
print(f'flywheel / C table decoder throughput: {s["edges_per_second"] / c["edges_per_second"]:.2f}x '
      f'({s["edges_per_second"]/1e6:.0f} M vs {c["edges_per_second"]/1e6:.0f} M edges/s)')
PY
