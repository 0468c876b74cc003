#!/usr/bin/env python3
"""flywheeld benchmarks (run on demand, never in the tests).

  daemon.py latency BIN_DIR [CLIENTS ...]   input-to-client latency p50/p99/p99.9 per client count
  daemon.py relay BIN_DIR [CLIENTS ...]     the same for a minimal C relay (Tests/Benchmarks/relay.c): the floor
  daemon.py slow BIN_DIR [CLIENTS]          p99 of CLIENTS-1 readers with and without one client that never reads
  daemon.py spin BIN_DIR [CLIENTS]          CPU while turning at 100 detents/s, 60 Hz frames to CLIENTS (16)
  daemon.py idle BIN_DIR [SECONDS]          context switches and CPU of an idle daemon, peak RSS
  daemon.py all BIN_DIR [--check BASELINE]  every figure as one JSON object; with --check, exit 1 when one
                                            is more than 20 % worse than BASELINE's (Tests/Benchmarks/baseline.json)

Latency is the client's CLOCK_MONOTONIC at receipt minus the event's `time` (the input's own
CLOCK_MONOTONIC time), over every discrete event of Tests/Benchmarks/latency.sim.
"""
import json, os, select, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def start(bin_dir, args, sock):
    notify = sock + ".notify"
    n = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    n.bind(notify)
    env = dict(os.environ, NOTIFY_SOCKET=notify)
    proc = subprocess.Popen([os.path.join(bin_dir, "flywheeld"), "--socket", sock, "--hardware",
                             os.path.join(ROOT, "hardware")] + args, env=env)
    n.settimeout(30)
    assert n.recv(100) == b"READY=1"
    return proc, n


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def latency(bin_dir, counts, silent=0, quiet=False):
    results = {}
    for count in counts:
        with tempfile.TemporaryDirectory() as d:
            sock = os.path.join(d, "f.sock")
            proc, _ = start(bin_dir, ["--simulate", os.path.join(HERE, "latency.sim"), "--hold-until-clients",
                                      str(count + silent), "--frames", "0"], sock)
            mute = []
            for _ in range(silent):  # connected and subscribed, never reading
                m = socket.socket(socket.AF_UNIX)
                m.connect(sock)
                m.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                mute.append(m)
            clients = []
            for _ in range(count):
                c = socket.socket(socket.AF_UNIX)
                c.connect(sock)
                c.setblocking(False)
                clients.append([c, b""])
            samples, done = [], 0
            deadline = time.monotonic() + 60
            while done < count and time.monotonic() < deadline:
                ready, _, _ = select.select([c for c, _ in clients], [], [], 1)
                now = time.clock_gettime(time.CLOCK_MONOTONIC)
                for entry in clients:
                    if entry[0] not in ready:
                        continue
                    data = entry[0].recv(1 << 16)
                    entry[1] += data
                    *lines, entry[1] = entry[1].split(b"\n")
                    for line in lines:
                        m = json.loads(line)
                        if m.get("class") == "tempo":
                            samples.append((now - m["time"]) * 1e6)
                            if m.get("phase") == "settled" and m.get("value") == 100:
                                done += 1
            proc.terminate()
            proc.wait()
            results[count] = (percentile(samples, 50), percentile(samples, 99), percentile(samples, 99.9), len(samples))
            if not quiet:
                print(json.dumps({"clients": count, "silent_clients": silent, "events": len(samples), "p50_us": round(results[count][0], 1),
                                  "p99_us": round(results[count][1], 1), "p999_us": round(results[count][2], 1)}))
    return results


def relay(bin_dir, counts, quiet=False):
    """The floor: a C relay writing each input line to every client, fed at latency.sim's own times."""
    import shutil
    results = {}
    with tempfile.TemporaryDirectory() as d:
        binary = os.path.join(d, "relay")
        subprocess.run([shutil.which("cc") or "cc", "-O2", "-o", binary, os.path.join(HERE, "relay.c")], check=True)
        times = subprocess.run([os.path.join(bin_dir, "flywheel"), "replay", os.path.join(HERE, "latency.sim"), "--hardware",
                                os.path.join(ROOT, "hardware")], check=True, capture_output=True, text=True).stdout
        offsets = [float(json.loads(line)["time"]) for line in times.splitlines() if json.loads(line).get("class") == "tempo"]
        for count in counts:
            sock = os.path.join(d, "r%d.sock" % count)
            proc = subprocess.Popen([binary, sock, str(count)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdout.readline() == b"ready\n"
            clients = []
            for _ in range(count):
                c = socket.socket(socket.AF_UNIX)
                c.connect(sock)
                c.setblocking(False)
                clients.append([c, b""])
            samples = []
            base = time.clock_gettime(time.CLOCK_MONOTONIC) + 0.2
            import threading
            def feed():
                for offset in offsets:
                    due = base + offset - offsets[0]
                    pause = due - time.clock_gettime(time.CLOCK_MONOTONIC)
                    if pause > 0:
                        time.sleep(pause)  # pacing the input like the scenario, not synchronising
                    proc.stdin.write(b"%.9f\n" % time.clock_gettime(time.CLOCK_MONOTONIC))
                    proc.stdin.flush()
                proc.stdin.close()
            feeder = threading.Thread(target=feed)
            feeder.start()
            expected = len(offsets) * count
            deadline = time.monotonic() + 60
            while len(samples) < expected and time.monotonic() < deadline:
                ready, _, _ = select.select([c for c, _ in clients], [], [], 1)
                now = time.clock_gettime(time.CLOCK_MONOTONIC)
                for entry in clients:
                    if entry[0] not in ready:
                        continue
                    entry[1] += entry[0].recv(1 << 16)
                    *lines, entry[1] = entry[1].split(b"\n")
                    samples += [(now - float(line)) * 1e6 for line in lines]
            feeder.join()
            proc.wait()
            results[count] = (percentile(samples, 50), percentile(samples, 99), percentile(samples, 99.9), len(samples))
            if not quiet:
                print(json.dumps({"relay_clients": count, "events": len(samples), "p50_us": round(results[count][0], 1),
                                  "p99_us": round(results[count][1], 1), "p999_us": round(results[count][2], 1)}))
    return results


def slow(bin_dir, count, quiet=False):
    """One client that never reads, beside count-1 readers: their p99 against count readers alone."""
    alone = latency(bin_dir, [count - 1], quiet=True)[count - 1]
    beside = latency(bin_dir, [count - 1], silent=1, quiet=True)[count - 1]
    figures = {"readers": count - 1, "p99_us_alone": round(alone[1], 1), "p99_us_with_a_silent_client": round(beside[1], 1)}
    if not quiet:
        print(json.dumps(figures))
    return figures


def spin(bin_dir, count, quiet=False):
    """CPU while the knob turns at 100 detents/s for 20 s with frames at 60 Hz to `count` clients."""
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "f.sock")
        proc, _ = start(bin_dir, ["--simulate", os.path.join(HERE, "spin.sim"), "--hold-until-clients", str(count), "--frames", "60"], sock)
        clients = []
        for _ in range(count):
            c = socket.socket(socket.AF_UNIX)
            c.connect(sock)
            c.sendall(b'{"cmd":"watch","frames":true}\n')
            c.setblocking(False)
            clients.append(c)
        _, cpu0, _, _ = proc_status(proc.pid)
        t0 = time.monotonic()
        frames = 0
        settled = 0
        buffers = {c: b"" for c in clients}
        while settled < count and time.monotonic() - t0 < 60:
            ready, _, _ = select.select(clients, [], [], 1)
            for c in ready:
                buffers[c] += c.recv(1 << 16)
                *lines, buffers[c] = buffers[c].split(b"\n")
                for line in lines:
                    m = json.loads(line)
                    frames += m.get("class") == "frame"
                    settled += m.get("class") == "tempo" and m.get("phase") == "settled"
        wall = time.monotonic() - t0
        _, cpu1, hwm, _ = proc_status(proc.pid)
        proc.terminate()
        proc.wait()
        figures = {"clients": count, "seconds": round(wall, 1), "cpu_seconds": round(cpu1 - cpu0, 2),
                   "cpu_percent": round(100 * (cpu1 - cpu0) / wall, 1), "frames_received": frames, "peak_rss": hwm}
        if not quiet:
            print(json.dumps(figures))
        return figures


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(parts[11]) + int(parts[12])) / ticks
    switches = int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
    return switches, cpu, fields["VmHWM"], fields["VmRSS"]


def idle(bin_dir, seconds):
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "f.sock")
        t0 = time.monotonic()
        proc, _ = start(bin_dir, ["--frames", "60"], sock)
        ready_ms = (time.monotonic() - t0) * 1000
        c = socket.socket(socket.AF_UNIX)
        c.connect(sock)
        c.recv(4096)  # hello
        c.sendall(b'{"cmd":"watch","frames":true}\n')
        c.recv(4096)
        s0, cpu0, _, _ = proc_status(proc.pid)
        time.sleep(seconds)  # measuring an interval of wall time, not synchronising
        s1, cpu1, hwm, rss = proc_status(proc.pid)
        proc.terminate()
        proc.wait()
        figures = {"idle_seconds": seconds, "context_switches": s1 - s0, "cpu_seconds": round(cpu1 - cpu0, 3),
                   "peak_rss": hwm, "rss": rss, "start_to_ready_ms": round(ready_ms, 1)}
        print(json.dumps(figures))
        return figures


# Figures where smaller is better, compared with the baseline; a figure more than 20 % worse fails
# (with a floor of 50 µs / 0.05 s / 1 ms so that noise on tiny numbers does not).
CHECKED = {"latency_p99_us_16": 50, "latency_p99_us_64": 50, "spin_cpu_percent": 1, "idle_cpu_seconds": 0.05,
           "start_to_ready_ms": 1, "slow_p99_us": 50}


def everything(bin_dir, baseline):
    lat = latency(bin_dir, [1, 16, 64, 256])
    floor = relay(bin_dir, [1, 16, 64, 256])
    figures = {"latency_p99_us_%d" % n: round(v[1], 1) for n, v in lat.items()}
    figures.update({"relay_p99_us_%d" % n: round(v[1], 1) for n, v in floor.items()})
    figures.update({"latency_over_relay_p50_%d" % n: round(lat[n][0] / floor[n][0], 2) for n in lat})
    figures["spin_cpu_percent"] = spin(bin_dir, 16)["cpu_percent"]
    figures["slow_p99_us"] = slow(bin_dir, 16)["p99_us_with_a_silent_client"]
    rest = idle(bin_dir, 60)
    figures["idle_cpu_seconds"] = rest["cpu_seconds"]
    figures["idle_context_switches"] = rest["context_switches"]
    figures["start_to_ready_ms"] = rest["start_to_ready_ms"]
    print(json.dumps(figures))
    if baseline:
        with open(baseline) as f:
            base = json.load(f)
        worse = [(k, base[k], figures[k]) for k, floor_value in CHECKED.items()
                 if k in base and figures[k] > base[k] * 1.2 and figures[k] - base[k] > floor_value]
        for key, before, now in worse:
            print("regressed: %s %s -> %s (more than 20 %% worse)" % (key, before, now), file=sys.stderr)
        sys.exit(1 if worse else 0)


if __name__ == "__main__":
    mode, bin_dir = sys.argv[1], sys.argv[2]
    if mode == "latency":
        latency(bin_dir, [int(a) for a in sys.argv[3:]] or [1, 16, 64])
    elif mode == "idle":
        idle(bin_dir, float(sys.argv[3]) if len(sys.argv) > 3 else 60)
    elif mode == "relay":
        relay(bin_dir, [int(a) for a in sys.argv[3:]] or [1, 16, 64, 256])
    elif mode == "slow":
        slow(bin_dir, int(sys.argv[3]) if len(sys.argv) > 3 else 16)
    elif mode == "spin":
        spin(bin_dir, int(sys.argv[3]) if len(sys.argv) > 3 else 16)
    elif mode == "all":
        everything(bin_dir, sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--check" else None)
