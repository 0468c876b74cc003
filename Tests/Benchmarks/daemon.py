#!/usr/bin/env python3
"""flywheeld benchmarks (run on demand, never in the tests).

  daemon.py latency BIN_DIR [CLIENTS ...]   input-to-client latency p50/p99/p99.9 per client count
  daemon.py idle BIN_DIR [SECONDS]          context switches and CPU of an idle daemon, peak RSS

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


def latency(bin_dir, counts):
    results = {}
    for count in counts:
        with tempfile.TemporaryDirectory() as d:
            sock = os.path.join(d, "f.sock")
            proc, _ = start(bin_dir, ["--simulate", os.path.join(HERE, "latency.sim"), "--hold-until-clients",
                                      str(count), "--frames", "0"], sock)
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
            print(json.dumps({"clients": count, "events": len(samples), "p50_us": round(results[count][0], 1),
                              "p99_us": round(results[count][1], 1), "p999_us": round(results[count][2], 1)}))
    return results


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
        print(json.dumps({"idle_seconds": seconds, "context_switches": s1 - s0, "cpu_seconds": round(cpu1 - cpu0, 3),
                          "peak_rss": hwm, "rss": rss, "start_to_ready_ms": round(ready_ms, 1)}))


if __name__ == "__main__":
    mode, bin_dir = sys.argv[1], sys.argv[2]
    if mode == "latency":
        latency(bin_dir, [int(a) for a in sys.argv[3:]] or [1, 16, 64])
    elif mode == "idle":
        idle(bin_dir, float(sys.argv[3]) if len(sys.argv) > 3 else 60)
