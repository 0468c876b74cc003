#!/usr/bin/env python3
"""gpiozero's RotaryEncoder on mock pins, fed the same random walk as flywheel-bench decode and
Tests/Benchmarks/table_decoder.c (the same generator, in Python), for decode.sh's comparison.
Prints one JSON line. Usage: gpiozero_decode.py SAMPLES"""
import json, sys, time
from gpiozero import Device, RotaryEncoder
from gpiozero.pins.mock import MockFactory

samples = int(sys.argv[1])
Device.pin_factory = MockFactory()
encoder = RotaryEncoder(17, 27, max_steps=0)  # unbounded; both pins pulled up, at rest 11
a, b = Device.pin_factory.pin(17), Device.pin_factory.pin(27)
# Gray phases 0..3 as (A, B) levels, as QuadratureLevels.atPhase: 00, 10, 11, 01 (phase 2 = 11).
levels = [(0, 0), (1, 0), (1, 1), (0, 1)]
state, phase = 0x2545F4914F6CDD1D, 2
mask = (1 << 64) - 1
walk = []
for _ in range(samples):
    state = (state * 6364136223846793005 + 1442695040888963407) & mask
    phase += -1 if (state >> 62) == 0 else 1
    walk.append(levels[phase % 4])
current = levels[2]
start = time.perf_counter()
edges = 0
for new in walk:
    if new[0] != current[0]:
        (a.drive_high if new[0] else a.drive_low)()
        edges += 1
    if new[1] != current[1]:
        (b.drive_high if new[1] else b.drive_low)()
        edges += 1
    current = new
elapsed = time.perf_counter() - start
print(json.dumps({"decoder": "gpiozero", "samples": samples, "edges": edges, "steps": encoder.steps,
                  "seconds": round(elapsed, 3), "edges_per_second": round(edges / elapsed)}))
