#!/usr/bin/env python3
"""Every figure of Tests/Benchmarks/BENCHMARKS.md, as one JSON object (run by run.sh).

  measure.py DAEMON CLI NATIVE_DIR WORK_DIR [--counts-only | --flooding-only] > figures.json

DAEMON is the flywheeld measured (run.sh gives the stripped, statically linked release build), CLI
the flywheel tool (for the scenarios' expected events), NATIVE_DIR the C tools run.sh compiled.

Deterministic figures (the regression check's): user-space instructions (callgrind) per event,
per delivered line and per frame, at rest and from start to READY; syscalls (strace -f) per delivered
line and per event; heap allocations (alloc_count.so) per event. Wall-clock figures (latency
percentiles, CPU seconds, memory) are reported, not checked. Each figure beside the C relay where
one applies. --counts-only measures the deterministic figures alone (what --check compares);
--flooding-only the flooding neighbours' table alone (BENCH_FLOOD_ROUNDS rounds, default 3)."""
import json, os, select, shutil, statistics, subprocess, sys, tempfile, time

from servers import (HARDWARE, HERE, Harness, Tools, allocations, flooder, measure, proc_figures, start_daemon, start_relay,
                     syscalls)

LATENCY = os.path.join(HERE, "latency.sim")
SPIN = os.path.join(HERE, "spin.sim")
COUNT_CLIENTS = 16  # the deterministic figures' scenario: latency.sim to 16 clients
MANY_CLIENTS = 64  # the same counted with more listeners (reported beside, not checked)
REST_SECONDS = 10
WRITE_SIDE = ("write", "writev", "send", "sendto", "sendmsg", "epoll_ctl")


def log(text):
    print(text, file=sys.stderr, flush=True)


def scenario_events(tools, scenario):
    """The scenario's tempo events as flywheel replay prints them (what every client must receive)."""
    out = subprocess.run([tools.cli, "replay", scenario, "--hardware", HARDWARE], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if json.loads(line).get("class") == "tempo"]


def relay_schedule(tools, events):
    """The relay's schedule: the daemon's own lines for the scenario, cut around seq and time."""
    path = tools.path("schedule")
    with open(path, "w") as f:
        for event in events:
            body = ",".join('"%s":%s' % (k, json.dumps(v, separators=(",", ":"))) for k, v in event.items() if k not in ("class", "time"))
            f.write('%d\t{"class":"tempo","seq":\t,%s,"time":\t}\n' % (round(event["time"] * 1e9), body))
    return path


def callgrind_window(server, harness, rest_seconds=0):
    """Callgrind counts of a held harness: setup, the measuring artifact, rest, and the scenario."""
    counts = {"setup": server.dump()}
    if rest_seconds:
        counts["artifact"] = server.dump()  # what a dump itself costs the guest (an interrupted epoll_wait retried)
        time.sleep(rest_seconds)  # an interval of wall time at rest, measured; not synchronisation
        counts["rest"] = server.dump()
    harness.release()
    counts["result"] = harness.result()
    counts["scenario"] = server.dump()
    harness.close()
    server.stop()
    return counts


def daemon_callgrind(tools, scenario, expect, frames_hz, clients=COUNT_CLIENTS):
    server = start_daemon(tools, ["--simulate", scenario, "--hold-until-clients", str(clients), "--frames", str(frames_hz)], kind="callgrind")
    server.dump()
    harness = Harness(tools, server.sock, clients, expect, frames=frames_hz > 0, hold=True)
    return callgrind_window(server, harness)


def daemon_start_and_rest(tools):
    """flywheeld with no input (--no-devices): start to READY, then at rest with clients watching frames."""
    server = start_daemon(tools, ["--no-devices", "--frames", "60"], kind="callgrind")
    counts = {"start_to_ready": server.dump()}
    harness = Harness(tools, server.sock, COUNT_CLIENTS, 1, frames=True, hold=True)
    counts["setup"] = server.dump()
    counts["artifact"] = server.dump()
    time.sleep(REST_SECONDS)  # an interval of wall time at rest, measured; not synchronisation
    counts["rest"] = server.dump()
    harness.proc.kill()
    harness.proc.wait()
    server.stop()
    return counts


def relay_callgrind(tools, schedule, expect, clients=COUNT_CLIENTS, rest_seconds=REST_SECONDS):
    server = start_relay(tools, clients, schedule, kind="callgrind")
    start = server.dump()
    harness = Harness(tools, server.sock, clients, expect, hold=True)
    counts = callgrind_window(server, harness, rest_seconds)
    counts["start_to_ready"] = start
    return counts


def counted_window(tools, server, expect, counter_file, frames=False):
    """Syscalls (strace) and allocations (alloc_count.so) over a held harness's scenario."""
    harness = Harness(tools, server.sock, COUNT_CLIENTS, expect, frames=frames, hold=True)
    before = allocations(counter_file)
    since = time.time()
    harness.release()
    result = harness.result()
    until = time.time()
    after = allocations(counter_file)
    harness.close()
    server.stop()
    return {"result": result, "syscalls": syscalls(server.trace, since, until),
            "allocations": after[0] - before[0], "frees": after[1] - before[1], "bytes": after[2] - before[2]}


def daemon_counted(tools, scenario, expect, frames_hz):
    counter = tools.path("allocations")
    env = {"LD_PRELOAD": tools.tool("alloc_count.so"), "ALLOC_COUNT_FILE": counter}
    server = start_daemon(tools, ["--simulate", scenario, "--hold-until-clients", str(COUNT_CLIENTS), "--frames", str(frames_hz)],
                          kind="strace", env=env)
    return counted_window(tools, server, expect, counter, frames=frames_hz > 0)


def relay_counted(tools, schedule, expect):
    counter = tools.path("allocations")
    env = {"LD_PRELOAD": tools.tool("alloc_count.so"), "ALLOC_COUNT_FILE": counter}
    server = start_relay(tools, COUNT_CLIENTS, schedule, kind="strace", env=env)
    return counted_window(tools, server, expect, counter)


def latencies(tools, expect, schedule, counts):
    """p50/p99/p99.9 for flywheeld, the relay, and the relay stamping at write (the harness's overhead)."""
    rows = []
    for clients in counts:
        row = {"clients": clients}
        server = start_daemon(tools, ["--simulate", LATENCY, "--hold-until-clients", str(clients), "--frames", "0"])
        row["daemon"] = measure(tools, server.sock, clients, expect)
        server.stop()
        server = start_relay(tools, clients, schedule)
        row["relay"] = measure(tools, server.sock, clients, expect)
        server.stop()
        server = start_relay(tools, clients, schedule, stamp_at_write=True)
        row["harness"] = measure(tools, server.sock, clients, expect)
        server.stop()
        log("latency %d clients: %s" % (clients, json.dumps(row)))
        rows.append(row)
    return rows


FLOOD_RSS_LIMIT_KIB = 256 * 1024  # past this the flooder is stopped: the daemon's growth is the finding
FLOOD_SECONDS = 60  # the quiet client's time limit beside a flooder (latency.sim lasts 13 s)


FLOOD_ROUNDS = int(os.environ.get("BENCH_FLOOD_ROUNDS", "3"))


def flooding(tools, expect):
    """A quiet client's latency alone and beside each flooding neighbour, FLOOD_ROUNDS rounds with
    the neighbours interleaved (none, blank, long, keys, tempo, none, ...) so a slow minute of the shared
    machine falls on all of them alike; each row gives the median over the rounds of each figure."""
    rounds = [flooding_round(tools, expect) for _ in range(FLOOD_ROUNDS)]
    rows = []
    for index, first in enumerate(rounds[0]):
        each = [r[index] for r in rounds]
        quiet = dict(first["quiet"])
        for key in ("p50_us", "p99_us", "p999_us", "max_us"):
            quiet[key] = statistics.median(row["quiet"][key] for row in each)
        quiet["clients_complete"] = min(row["quiet"]["clients_complete"] for row in each)
        quiet["clients_closed"] = max(row["quiet"]["clients_closed"] for row in each)
        quiet["p99_us_rounds"] = [row["quiet"]["p99_us"] for row in each]
        row = {"neighbour": first["neighbour"], "quiet": quiet, "rounds": len(each),
               "daemon_cpu_percent": statistics.median(row["daemon_cpu_percent"] for row in each),
               "daemon_peak_rss_kib": max(row["daemon_peak_rss_kib"] for row in each)}
        stopped = [row["flooder_stopped_after_seconds"] for row in each if "flooder_stopped_after_seconds" in row]
        if stopped:
            row["flooder_stopped_after_seconds"] = min(stopped)
        rows.append(row)
    return rows


def flooding_round(tools, expect):
    """One round: the quiet client alone, then beside each flooder; the daemon's CPU and memory
    meanwhile (sampled every 100 ms; a flooder that grows the daemon past FLOOD_RSS_LIMIT_KIB is
    stopped, and when, is recorded, so the machine is not exhausted)."""
    rows = []
    for mode in (None, "blank", "long", "keys", "tempo"):
        # The quiet client starts the scenario; the flooder connects right after it (first, a
        # flooder the daemon disconnected would leave the scenario waiting for a second client).
        server = start_daemon(tools, ["--simulate", LATENCY, "--hold-until-clients", "1", "--frames", "0"])
        before, started = proc_figures(server.proc.pid), time.monotonic()
        harness = Harness(tools, server.sock, 1, expect, timeout=FLOOD_SECONDS)
        flood = flooder(tools, server.sock, mode) if mode else None
        row, peak = {"neighbour": mode or "none"}, 0
        while not select.select([harness.proc.stdout], [], [], 0.1)[0]:  # sampling memory until the harness has its figures
            peak = max(peak, proc_figures(server.proc.pid)["Rss"])
            if flood and flood.poll() is None and peak > FLOOD_RSS_LIMIT_KIB:
                flood.kill()
                row["flooder_stopped_after_seconds"] = round(time.monotonic() - started, 1)
        row["quiet"] = harness.result()
        harness.close()
        after, wall = proc_figures(server.proc.pid), time.monotonic() - started
        row["daemon_cpu_percent"] = round(100 * (after["cpu_seconds"] - before["cpu_seconds"]) / wall, 1)
        row["daemon_peak_rss_kib"] = max(peak, after["Rss"])
        if flood:
            flood.kill()
            flood.wait()
        server.stop()
        log("flooding: %s" % json.dumps(row))
        rows.append(row)
    return rows


def native_rest(tools):
    """The shipped daemon natively with no input (--no-devices): start to READY in wall time, memory
    after READY, then CPU, context switches and memory over REST_SECONDS with clients watching frames."""
    server = start_daemon(tools, ["--no-devices", "--frames", "60"])
    figures = {"start_to_ready_ms": round(server.ready_ns / 1e6, 1), "no_clients": proc_figures(server.proc.pid)}
    harness = Harness(tools, server.sock, COUNT_CLIENTS, 1, frames=True, hold=True)
    before = proc_figures(server.proc.pid)
    time.sleep(REST_SECONDS)  # an interval of wall time at rest, measured; not synchronisation
    after = proc_figures(server.proc.pid)
    figures["rest"] = dict(after, seconds=REST_SECONDS, cpu_seconds=after["cpu_seconds"] - before["cpu_seconds"],
                           context_switches=after["context_switches"] - before["context_switches"])
    harness.proc.kill()
    harness.proc.wait()
    server.stop()
    return figures


def memory_at_rest(tools, runs=3):
    """RSS, PSS and Anonymous at rest (`--no-devices`, COUNT_CLIENTS - 1 clients watching frames,
    3 s), `runs` times each for two copies of the daemon: one on the root file system (/var/tmp,
    where /usr/bin is on most machines) and one on tmpfs (/dev/shm). Which text pages are resident
    is the kernel's choice: it maps, around each page the program touches, what the page cache
    holds nearby — 64 KiB (fault-around) of a tmpfs file or, before Linux 6.16, of an ext4 one; a
    whole large folio of an ext4 file from 6.16 on, often much more. Debian 13's and Raspberry Pi
    OS's kernels are 6.12. A folder that is missing or mounted noexec is left out."""
    def file_system(path):  # findmnt names ext4 (stat -f says "ext2/ext3" for all three)
        for command in (["findmnt", "-n", "-o", "FSTYPE", "-T", path], ["stat", "-f", "-c", "%T", path]):
            try:
                found = subprocess.run(command, capture_output=True, text=True).stdout.split("\n")[0].strip()
            except OSError:
                continue
            if found:
                return found
        return "unknown"
    rows = []
    for folder in ("/var/tmp", "/dev/shm"):
        if not os.path.isdir(folder):
            continue
        place = tempfile.mkdtemp(prefix="flywheeld-bench-", dir=folder)
        binary = os.path.join(place, "flywheeld")
        try:
            shutil.copy2(tools.daemon, binary)
            usable = subprocess.run([binary, "--version"], capture_output=True).returncode == 0
        except OSError:  # mounted noexec
            usable = False
        if not usable:
            shutil.rmtree(place, ignore_errors=True)
            continue
        try:
            samples = []
            for _ in range(runs):
                server = start_daemon(tools, ["--no-devices", "--frames", "60"], binary=binary)
                harness = Harness(tools, server.sock, COUNT_CLIENTS, 1, frames=True, hold=True)
                time.sleep(3)  # an interval at rest before the reading; not synchronisation
                sample = proc_figures(server.proc.pid)
                samples.append({key: sample[key] for key in ("Rss", "Pss", "Anonymous")})
                harness.proc.kill()
                harness.proc.wait()
                server.stop()
            rows.append({"file_system": file_system(binary), "kernel": os.uname().release, "samples": samples})
        finally:
            shutil.rmtree(place, ignore_errors=True)
    return rows


def native_spin(tools, expect):
    """The shipped daemon natively while spinning at 100 detents/s with 60 Hz frames to
    COUNT_CLIENTS: CPU, context switches, and memory sampled every 100 ms."""
    server = start_daemon(tools, ["--simulate", SPIN, "--hold-until-clients", str(COUNT_CLIENTS), "--frames", "60"])
    harness = Harness(tools, server.sock, COUNT_CLIENTS, expect, frames=True, hold=True)
    before = proc_figures(server.proc.pid)
    harness.release()
    started, peak = time.monotonic(), {"Rss": 0, "Pss": 0, "Anonymous": 0}
    while not select.select([harness.proc.stdout], [], [], 0)[0]:  # until the harness has its figures
        sample = proc_figures(server.proc.pid)
        peak = {key: max(peak[key], sample[key]) for key in peak}
        time.sleep(0.1)  # sampling memory every 100 ms while the harness runs; not synchronisation
    result = harness.result()
    wall = time.monotonic() - started
    end = proc_figures(server.proc.pid)
    harness.close()
    server.stop()
    return {"seconds": round(wall, 1), "cpu_seconds": round(end["cpu_seconds"] - before["cpu_seconds"], 2),
            "cpu_percent": round(100 * (end["cpu_seconds"] - before["cpu_seconds"]) / wall, 1),
            "context_switches": end["context_switches"] - before["context_switches"], "held": before,
            "peak_rss_kib": peak["Rss"], "peak_pss_kib": peak["Pss"], "peak_anonymous_kib": peak["Anonymous"], "VmHWM": end["VmHWM"],
            "harness": result}


def main():
    daemon, cli, native, work = sys.argv[1:5]
    tools = Tools(daemon, cli, native, work)
    if "--flooding-only" in sys.argv:  # the wall-clock fairness figures alone, for a quiet moment
        json.dump({"flooding": flooding(tools, len(scenario_events(tools, LATENCY)))}, sys.stdout, indent=1)
        print()
        return
    counts = [int(n) for n in os.environ.get("BENCH_CLIENTS", "1 16 64 256").split()]
    latency_events, spin_events = scenario_events(tools, LATENCY), scenario_events(tools, SPIN)
    schedule = relay_schedule(tools, latency_events)
    figures = {"latency_events": len(latency_events), "spin_events": len(spin_events),
               "spin_scenario_seconds": spin_events[-1]["time"], "count_clients": COUNT_CLIENTS, "rest_seconds": REST_SECONDS,
               "static_swift_runtime": "libswiftCore" not in subprocess.run(["ldd", daemon], capture_output=True, text=True).stdout}
    log("callgrind: flywheeld, latency.sim to %d clients" % COUNT_CLIENTS)
    figures["callgrind_daemon_events"] = daemon_callgrind(tools, LATENCY, len(latency_events), 0)
    log("callgrind: flywheeld, start to READY and %d s at rest with %d clients watching frames" % (REST_SECONDS, COUNT_CLIENTS - 1))
    figures["callgrind_daemon_rest"] = daemon_start_and_rest(tools)
    log("callgrind: flywheeld, spin.sim with 60 Hz frames")
    figures["callgrind_daemon_spin"] = daemon_callgrind(tools, SPIN, len(spin_events), 60)
    log("callgrind: flywheeld, spin.sim without frames")
    figures["callgrind_daemon_spin_no_frames"] = daemon_callgrind(tools, SPIN, len(spin_events), 0)
    log("callgrind: the relay")
    figures["callgrind_relay"] = relay_callgrind(tools, schedule, len(latency_events))
    log("callgrind: flywheeld and the relay, latency.sim to 1 client (the marginal cost of a line)")
    figures["callgrind_daemon_events_1"] = daemon_callgrind(tools, LATENCY, len(latency_events), 0, clients=1)
    figures["callgrind_relay_1"] = relay_callgrind(tools, schedule, len(latency_events), clients=1, rest_seconds=0)
    log("callgrind: flywheeld and the relay, latency.sim to %d clients (the ratio with more listeners)" % MANY_CLIENTS)
    figures["callgrind_daemon_events_many"] = daemon_callgrind(tools, LATENCY, len(latency_events), 0, clients=MANY_CLIENTS)
    figures["callgrind_relay_many"] = relay_callgrind(tools, schedule, len(latency_events), clients=MANY_CLIENTS, rest_seconds=0)
    log("strace and allocations: flywheeld, latency.sim; spin.sim with frames; the relay")
    figures["counted_daemon_events"] = daemon_counted(tools, LATENCY, len(latency_events), 0)
    figures["counted_daemon_spin"] = daemon_counted(tools, SPIN, len(spin_events), 60)
    figures["counted_relay"] = relay_counted(tools, schedule, len(latency_events))
    if "--counts-only" in sys.argv:  # the regression check needs nothing more
        json.dump(figures, sys.stdout, indent=1)
        return
    log("memory and CPU of the shipped daemon at rest and spinning")
    figures["native_rest"] = native_rest(tools)
    log("memory at rest, the daemon's file on two file systems")
    figures["memory_at_rest"] = memory_at_rest(tools)
    figures["native_spin"] = native_spin(tools, len(spin_events))
    log("latency")
    figures["latency"] = latencies(tools, len(latency_events), schedule, counts)
    log("flooding neighbours")
    figures["flooding"] = flooding(tools, len(latency_events))
    json.dump(figures, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
