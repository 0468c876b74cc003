#!/usr/bin/env bash
# Decode throughput: Flywheel's decoder against a straightforward C table decoder compiled with
# -O2, on the same in-memory random walk, measured in one run. Prints both and the ratio; then
# gpiozero's RotaryEncoder on mock pins (installed from PyPI into a throwaway virtualenv; skipped
# with a message when that cannot be done) on the first GPIOZERO_SAMPLES (default 1,000,000) of the
# same walk, with the ratio.
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

gz_samples=${GPIOZERO_SAMPLES:-1000000}
if python3 -m venv "$work/venv" >/dev/null 2>&1 && "$work/venv/bin/pip" install -q gpiozero >/dev/null 2>&1; then
    gz=$("$work/venv/bin/python" Tests/Benchmarks/gpiozero_decode.py "$gz_samples")
    echo "$gz"
    python3 - "$swift" "$gz" <<'PY'
import json, sys
s, g = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f'flywheel / gpiozero RotaryEncoder (mock pins) throughput: {s["edges_per_second"] / g["edges_per_second"]:.0f}x '
      f'({s["edges_per_second"]/1e6:.0f} M vs {g["edges_per_second"]/1e3:.0f} k edges/s)')
PY
else
    echo "gpiozero could not be installed from PyPI into a virtualenv: its comparison is skipped." >&2
fi
