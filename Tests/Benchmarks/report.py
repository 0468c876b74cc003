#!/usr/bin/env python3
"""From measure.py's figures: the derived figures, BENCHMARKS.md's generated tables, and the
regression check against baseline.json (deterministic figures only).

  report.py FIGURES.json [--write BENCHMARKS.md] [--check BASELINE] [--update-baseline BASELINE]
  report.py FIGURES.json --flooding      (measure.py --flooding-only's figures: that section alone)
"""
import json, re, sys

# A Pi Zero 2 W core: Cortex-A53 at 1 GHz, in-order and dual-issue. Sustained IPC on branchy
# server code like this (hashing, small copies, syscall wrappers) is assumed at 0.6-1.0: an
# assumption from the core's design (dual-issue in-order, so IPC < 2, and below 1 on code with
# cache misses and unpredictable branches), not a measurement on a Pi.
PI_INSTRUCTIONS_PER_SECOND = (0.6e9, 1.0e9)
# Kernel work per syscall on that core (a small AF_UNIX write with the reader's wake-up, an
# epoll_wait, a timerfd read), assumed 2-5 us: also an assumption, not measured on a Pi.
PI_SECONDS_PER_SYSCALL = (2e-6, 5e-6)

# The regression check: (figure, relative tolerance, absolute floor). A 5 % change in a count is real.
CHECKED = [
    ("daemon_instructions_per_event", 0.05, 0),
    ("daemon_instructions_per_delivered_line", 0.05, 0),
    ("daemon_instructions_per_frame_line", 0.05, 0),
    ("daemon_start_to_ready_instructions", 0.05, 0),
    ("daemon_rest_instructions", 0.05, 1000),
    ("daemon_syscalls_per_delivered_line", 0.05, 0),
    ("daemon_write_side_syscalls_per_delivered_line", 0.05, 0),
    ("daemon_allocations_per_event", 0.05, 0),
]
# Reported, not checked: allocations per delivered line with frames moved by 4 % between runs (they
# depend on how many frames fit into the spin and how many inputs share a wake-up under strace).


def derive(f):
    """The figures the tables show and the check compares, from the raw counts."""
    d = {}
    events, clients = f["latency_events"], f["count_clients"]
    for who, key in (("daemon", "callgrind_daemon_events"), ("relay", "callgrind_relay")):
        run = f[key]
        d[who + "_instructions_per_event"] = round(run["scenario"] / events)
        d[who + "_instructions_per_delivered_line"] = round(run["scenario"] / run["result"]["lines"])
    rest = f["callgrind_daemon_rest"]
    d["daemon_start_to_ready_instructions"] = rest["start_to_ready"]
    d["daemon_rest_instructions"] = max(0, rest["rest"] - rest["artifact"])
    d["daemon_rest_raw_instructions"], d["daemon_dump_artifact_instructions"] = rest["rest"], rest["artifact"]
    relay = f["callgrind_relay"]
    d["relay_start_to_ready_instructions"] = relay["start_to_ready"]
    d["relay_rest_instructions"] = max(0, relay["rest"] - relay["artifact"])
    spin, still = f["callgrind_daemon_spin"], f["callgrind_daemon_spin_no_frames"]
    d["spin_frame_lines"] = spin["result"]["frames"]
    d["spin_frames_per_client"] = round(spin["result"]["frames"] / clients, 1)
    d["daemon_instructions_per_frame_line"] = round((spin["scenario"] - still["scenario"]) / spin["result"]["frames"])
    d["daemon_instructions_per_frame"] = round((spin["scenario"] - still["scenario"]) * clients / spin["result"]["frames"])
    d["ratio_instructions_per_delivered_line"] = round(d["daemon_instructions_per_delivered_line"] / d["relay_instructions_per_delivered_line"], 1)
    # The marginal cost of a delivered line: what 15 more clients add, per line they add (the work
    # per event, done once however many clients listen, cancels out).
    for who, many, one in (("daemon", "callgrind_daemon_events", "callgrind_daemon_events_1"), ("relay", "callgrind_relay", "callgrind_relay_1")):
        if one in f:
            a, b = f[many], f[one]
            d[who + "_marginal_instructions_per_delivered_line"] = round((a["scenario"] - b["scenario"]) / (a["result"]["lines"] - b["result"]["lines"]))
    if "callgrind_daemon_events_many" in f:  # the same scenario counted with more listeners
        many_daemon, many_relay = f["callgrind_daemon_events_many"], f["callgrind_relay_many"]
        d["many_clients"] = many_daemon["result"]["lines"] // events
        d["daemon_instructions_per_delivered_line_many"] = round(many_daemon["scenario"] / many_daemon["result"]["lines"])
        d["relay_instructions_per_delivered_line_many"] = round(many_relay["scenario"] / many_relay["result"]["lines"])
        d["ratio_instructions_per_delivered_line_many"] = round(
            d["daemon_instructions_per_delivered_line_many"] / d["relay_instructions_per_delivered_line_many"], 2)
    if "daemon_marginal_instructions_per_delivered_line" in d:
        d["ratio_marginal_instructions_per_delivered_line"] = round(
            d["daemon_marginal_instructions_per_delivered_line"] / d["relay_marginal_instructions_per_delivered_line"], 2)
    for who, key in (("daemon", "counted_daemon_events"), ("relay", "counted_relay")):
        run = f[key]
        lines, calls = run["result"]["lines"], run["syscalls"]
        total = sum(calls.values())
        writes = sum(calls.get(name, 0) for name in ("write", "writev", "send", "sendto", "sendmsg"))
        d[who + "_syscalls_per_delivered_line"] = round(total / lines, 3)
        d[who + "_syscalls_per_event"] = round(total / events, 2)
        d[who + "_write_side_syscalls_per_delivered_line"] = round((writes + calls.get("epoll_ctl", 0)) / lines, 3)
        d[who + "_writes_per_delivered_line"] = round(writes / lines, 3)
        d[who + "_syscalls"] = calls
        d[who + "_allocations_per_event"] = round(run["allocations"] / events, 2)
        d[who + "_allocations_per_delivered_line"] = round(run["allocations"] / lines, 3)
    counted_spin = f["counted_daemon_spin"]
    spin_lines = counted_spin["result"]["lines"]
    d["daemon_frame_allocations_per_delivered_line"] = round(counted_spin["allocations"] / spin_lines, 3)
    d["daemon_spin_syscalls_per_delivered_line"] = round(sum(counted_spin["syscalls"].values()) / spin_lines, 3)
    # The Pi budget: spin.sim's user-space instructions and syscalls over its own duration.
    seconds = f["spin_scenario_seconds"]
    d["spin_instructions_per_second"] = round(spin["scenario"] / seconds)
    d["spin_syscalls_per_second"] = round(sum(counted_spin["syscalls"].values()) / seconds)
    d["pi_user_percent"] = [round(100 * d["spin_instructions_per_second"] / ips, 2) for ips in reversed(PI_INSTRUCTIONS_PER_SECOND)]
    d["pi_kernel_percent"] = [round(100 * d["spin_syscalls_per_second"] * s, 1) for s in PI_SECONDS_PER_SYSCALL]
    if "native_rest" not in f:  # measured with --counts-only
        return d
    rest, spinning = f["native_rest"], f["native_spin"]
    d["rss_rest_kib"], d["pss_rest_kib"] = rest["rest"]["Rss"], rest["rest"]["Pss"]
    for row in f.get("memory_at_rest", []):  # the goal holds only if every reading meets it
        d["rss_rest_kib"] = max([d["rss_rest_kib"]] + [sample["Rss"] for sample in row["samples"]])
    d["rss_spin_kib"], d["pss_spin_kib"] = spinning["peak_rss_kib"], spinning["peak_pss_kib"]
    d["flood_p99_ratio"] = flood_ratios(f["flooding"])
    return d


def flood_ratios(rows):
    """Each neighbour's median p99 over the quiet client's median p99 alone. A quiet client that was
    disconnected, or missed events, has no ratio: the goal is missed outright."""
    alone = next(row for row in rows if row["neighbour"] == "none")["quiet"]
    return {row["neighbour"]: round(row["quiet"]["p99_us"] / alone["p99_us"], 2) if row["quiet"]["clients_complete"] else None
            for row in rows}


def flooding_table(rows, ratios, events):
    """The flooding neighbours' section (lines)."""
    out = []
    w = out.append
    w("### Flooding neighbours")
    w("")
    w("One quiet client (the harness) on `latency.sim`, alone and beside one neighbour sending as fast")
    w("as the socket takes (`flood_client.c`, which reads and drops every answer): blank lines; 64 KiB")
    w("lines that are not commands; 64 KiB commands of 7,400 keys (each parsed whole, its keys checked")
    w("for duplicates); bursts of 64 `set tempo` commands (each broadcast to everyone). The")
    w("daemon's memory is sampled every 100 ms; a flooder that grows it past 256 MiB is stopped there.")
    n = rows[0].get("rounds", 1)
    if n > 1:
        w("%d rounds, the neighbours interleaved in each (none, blank, long, keys, tempo), so a slow moment of" % n)
        w("the shared machine is shared by all; each figure is the median over the rounds, and the p99 of")
        w("every round is listed.")
    w("")
    w("| neighbour | quiet p50 | p99 | p99.9 | p99 / alone | p99 of each round | the quiet client | daemon CPU | daemon peak RSS |")
    w("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        q, ratio = row["quiet"], ratios[row["neighbour"]]
        each = ", ".join(number(p, 0) for p in q.get("p99_us_rounds", [q["p99_us"]]))
        if q["clients_complete"]:
            cells = ["%s µs" % number(q[p], 1) for p in ("p50_us", "p99_us", "p999_us")] + ["%.2f×" % ratio, each + " µs", "got all %d events" % events]
        else:
            state = "was disconnected" if q["clients_closed"] else "timed out"
            cells = ["—", "—", "—", "—", each, "%s after %s lines, %d of %d events" % (state, number(q["lines"]), q["measured"], events)]
        if "flooder_stopped_after_seconds" in row:
            cells[-1] += "; the flooder was stopped after %.1f s, the daemon past %d MiB" % (row["flooder_stopped_after_seconds"], 256)
        w("| %s | %s | %.1f %% | %s KiB |" % (row["neighbour"], " | ".join(cells), row["daemon_cpu_percent"], number(row["daemon_peak_rss_kib"])))
    w("")
    return out


def number(value, digits=0):
    return "{:,.{}f}".format(value, digits)


def render(f, d):
    """BENCHMARKS.md's generated part."""
    events, clients, rest_s = f["latency_events"], f["count_clients"], f["rest_seconds"]
    met = lambda ok: "**met**" if ok else "**not met**"
    out = []
    w = out.append
    w("Generated by `bash Tests/Benchmarks/run.sh` (every figure below, one run; `--check` compares the")
    if f.get("static_swift_runtime", True):
        w("deterministic ones with `baseline.json`). The daemon is the shipped build (`udev/release-build.sh`:")
        w("the Swift runtime and the C++ library linked statically, full RELRO), stripped. The relay is")
        w("`relay.c` (`cc -O2`): the same job in C with no")
    else:
        w("deterministic ones with `baseline.json`). The daemon was a release build with the Swift runtime")
        w("linked dynamically, not the shipped static one: its start and memory figures are not the shipped")
        w("daemon's. The relay is `relay.c` (`cc -O2`): the same job in C with no")
    w("work — one epoll loop, a timerfd, the daemon's own lines for the scenario encoded once, each")
    w("client's `seq` spliced in, one `write` per delivered line. The scenario of the counts is")
    w("`latency.sim` (%d tempo events) to %d clients, frames off, unless said." % (events, clients))
    w("")
    w("### Deterministic figures (the regression check's)")
    w("")
    w("User-space instructions are callgrind's (`valgrind --tool=callgrind`, counts dumped with")
    w("`callgrind_control -d` at READY, when the harness has connected all clients but one, and when every")
    w("client has every line: the window is the scenario alone). `perf stat -e instructions` reports")
    w("\"not supported\" on this virtual machine. Syscalls are `strace -f -ttt` between the same two")
    w("moments; allocations are `alloc_count.so` (LD_PRELOAD: malloc, calloc, realloc, memalign,")
    w("aligned_alloc, posix_memalign) over the same window.")
    w("")
    w("| figure | flywheeld | C relay | ratio |")
    w("|---|---|---|---|")
    w("| instructions per event (one tempo event to %d clients) | %s | %s | %.1f× |" % (
        clients, number(d["daemon_instructions_per_event"]), number(d["relay_instructions_per_event"]),
        d["daemon_instructions_per_event"] / d["relay_instructions_per_event"]))
    w("| instructions per delivered line | %s | %s | **%.1f×** |" % (
        number(d["daemon_instructions_per_delivered_line"]), number(d["relay_instructions_per_delivered_line"]), d["ratio_instructions_per_delivered_line"]))
    if "ratio_instructions_per_delivered_line_many" in d:
        w("| instructions per delivered line, the same to %d clients (counted, not checked) | %s | %s | %.2f× |" % (
            d["many_clients"], number(d["daemon_instructions_per_delivered_line_many"]),
            number(d["relay_instructions_per_delivered_line_many"]), d["ratio_instructions_per_delivered_line_many"]))
    if "ratio_marginal_instructions_per_delivered_line" in d:
        w("| instructions a delivered line adds (16 clients minus 1, per line more: the per-event work cancels) | %s | %s | %.2f× |" % (
            number(d["daemon_marginal_instructions_per_delivered_line"]), number(d["relay_marginal_instructions_per_delivered_line"]),
            d["ratio_marginal_instructions_per_delivered_line"]))
    w("| instructions per frame (`spin.sim`, 60 Hz, %d clients watching: with frames minus without) | %s | — | |" % (
        clients, number(d["daemon_instructions_per_frame"])))
    w("| instructions per delivered frame line | %s | %s (a line) | %.1f× |" % (
        number(d["daemon_instructions_per_frame_line"]), number(d["relay_instructions_per_delivered_line"]),
        d["daemon_instructions_per_frame_line"] / d["relay_instructions_per_delivered_line"]))
    w("| syscalls per delivered line (floor 1.0) | %.3f | %.3f | |" % (d["daemon_syscalls_per_delivered_line"], d["relay_syscalls_per_delivered_line"]))
    w("| write-side syscalls per delivered line (`write` + `epoll_ctl`) | %.3f | %.3f | |" % (
        d["daemon_write_side_syscalls_per_delivered_line"], d["relay_write_side_syscalls_per_delivered_line"]))
    w("| syscalls per event (to %d clients) | %.2f | %.2f | |" % (clients, d["daemon_syscalls_per_event"], d["relay_syscalls_per_event"]))
    w("| syscalls per delivered line, `spin.sim` with frames | %.3f | — | |" % d["daemon_spin_syscalls_per_delivered_line"])
    w("| heap allocations per event | %.2f | %.2f | |" % (d["daemon_allocations_per_event"], d["relay_allocations_per_event"]))
    w("| heap allocations per delivered line | %.3f | %.3f | |" % (d["daemon_allocations_per_delivered_line"], d["relay_allocations_per_delivered_line"]))
    w("| heap allocations per delivered line, `spin.sim` with frames | %.3f | — | |" % d["daemon_frame_allocations_per_delivered_line"])
    w("| instructions at rest, %d s, %d clients watching frames | %s | %s | |" % (
        rest_s, clients - 1, number(d["daemon_rest_instructions"]), number(d["relay_rest_instructions"])))
    w("| start to READY, instructions (`--no-devices`; the loader included) | %s | %s (to listening) | %.1f× |" % (
        number(d["daemon_start_to_ready_instructions"]), number(d["relay_start_to_ready_instructions"]),
        d["daemon_start_to_ready_instructions"] / d["relay_start_to_ready_instructions"]))
    w("")
    w("Syscalls in the flywheeld window, by name: %s. The relay's: %s." % (
        ", ".join("`%s` %d" % kv for kv in sorted(d["daemon_syscalls"].items(), key=lambda kv: -kv[1])),
        ", ".join("`%s` %d" % kv for kv in sorted(d["relay_syscalls"].items(), key=lambda kv: -kv[1]))))
    w("At rest, a dump interrupts the daemon's `epoll_wait`, which is retried: %d instructions, measured by two" % d["daemon_dump_artifact_instructions"])
    w("dumps back to back and subtracted (the %d s window counted %d)." % (rest_s, d["daemon_rest_raw_instructions"]))
    w("")
    w("### Latency (wall clock: reported, not checked)")
    w("")
    w("The native harness `latency_client.c` (`cc -O2`): one process, one epoll set, K connections; each")
    w("`read()` stamped with CLOCK_MONOTONIC as it returns; latency = that stamp minus the line's `time`")
    w("(the input's own kernel-monotonic time for flywheeld, the event's scheduled time for the relay),")
    w("over every tempo event of `latency.sim` (%d per client). The harness's overhead is the relay" % events)
    w("stamping `time` just before each `write` (`--stamp-at-write`): the kernel's delivery plus the")
    w("harness's wake-up and parsing, with no timer in it. This machine is shared (2 cores, other builds")
    w("running): compare columns of one row, measured within a minute of each other.")
    w("")
    w("| clients | flywheeld p50 | p99 | p99.9 | C relay p50 | p99 | p99.9 | harness overhead p50 | p99 | p99.9 | harness CPU per line |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in f["latency"]:
        cells = [str(row["clients"])]
        for who in ("daemon", "relay", "harness"):
            cells += ["%s µs" % number(row[who][p], 1) for p in ("p50_us", "p99_us", "p999_us")]
        cells.append("%.1f µs" % row["harness"]["harness_cpu_us_per_line"])
        w("| " + " | ".join(cells) + " |")
    w("")
    w("### A Pi Zero 2 W–class budget")
    w("")
    seconds = f["spin_scenario_seconds"]
    low, high = PI_INSTRUCTIONS_PER_SECOND
    w("`spin.sim`: turning at 100 detents/s for %.1f s with 60 Hz frames to %d clients (%s frame lines," % (seconds, clients, number(d["spin_frame_lines"])))
    w("%s per client). Assumed core: Cortex-A53 at 1 GHz, dual-issue in-order; sustained IPC on this kind" % number(d["spin_frames_per_client"], 1))
    w("of code assumed 0.6–1.0, so %.1f–%.1f × 10⁹ instructions/s (an assumption from the core's design," % (low / 1e9, high / 1e9))
    w("not measured on a Pi). Kernel time per syscall assumed 2–5 µs on that core (also an assumption).")
    w("")
    w("| figure | value |")
    w("|---|---|")
    w("| user-space instructions per second while spinning (callgrind) | %s |" % number(d["spin_instructions_per_second"]))
    w("| share of one A53 core, user space | **%.2f–%.2f %%** (headroom %.1f–%.1f %%) |" % (
        d["pi_user_percent"][0], d["pi_user_percent"][1], 100 - d["pi_user_percent"][1], 100 - d["pi_user_percent"][0]))
    w("| syscalls per second while spinning (strace) | %s |" % number(d["spin_syscalls_per_second"]))
    w("| share of one A53 core, kernel (estimate) | %.1f–%.1f %% |" % tuple(d["pi_kernel_percent"]))
    total = (d["pi_user_percent"][0] + d["pi_kernel_percent"][0], d["pi_user_percent"][1] + d["pi_kernel_percent"][1])
    w("| total, estimate | **%.1f–%.1f %%** of one of the four cores |" % total)
    w("")
    rest, spinning = f["native_rest"], f["native_spin"]
    w("Memory of the shipped daemon (Swift runtime and C++ library linked statically, stripped), from `/proc/PID/smaps_rollup`")
    w("(Anonymous: its own heap and stacks; the rest of RSS is mapped files, mostly its own text),")
    w("and its CPU on this machine:")
    w("")
    w("| figure | RSS | PSS | Anonymous | goal |")
    w("|---|---|---|---|---|")
    row = lambda name, m, goal="": w("| %s | %s KiB | %s KiB | %s KiB | %s |" % (name, number(m[0]), number(m[1]), number(m[2]), goal))
    pick = lambda m: (m["Rss"], m["Pss"], m["Anonymous"])
    row("after READY, `--no-devices`, no clients", pick(rest["no_clients"]))
    row("at rest, `--no-devices`, %d clients watching frames" % (clients - 1), pick(rest["rest"]),
        "≤ 8 MiB RSS: %s" % met(rest["rest"]["Rss"] <= 8192))
    for reading in f.get("memory_at_rest", []):
        spread = lambda key: "%s–%s" % (number(min(x[key] for x in reading["samples"])), number(max(x[key] for x in reading["samples"])))
        w("| at rest as above, the daemon's file on %s (Linux %s), %d runs | %s KiB | %s KiB | %s KiB | ≤ 8 MiB RSS: %s |" % (
            reading["file_system"], reading["kernel"], len(reading["samples"]), spread("Rss"), spread("Pss"), spread("Anonymous"),
            met(max(x["Rss"] for x in reading["samples"]) <= 8192)))
    row("`spin.sim` loaded, %d clients connected, before it plays" % (clients - 1), pick(spinning["held"]))
    row("spinning, %d clients (peak of 100 ms samples)" % clients,
        (spinning["peak_rss_kib"], spinning["peak_pss_kib"], spinning["peak_anonymous_kib"]), "≤ 10 MiB RSS: %s" % met(d["rss_spin_kib"] <= 10240))
    w("")
    w("On this x86 machine: %.2f s of CPU in %.1f s of spinning (%.1f %%), %d context switches; at rest" % (
        spinning["cpu_seconds"], spinning["seconds"], spinning["cpu_percent"], spinning["context_switches"]))
    w("for %d s, %.2f s of CPU and %d context switches; start to READY %.1f ms (wall clock)." % (
        rest_s, rest["rest"]["cpu_seconds"], rest["rest"]["context_switches"], rest["start_to_ready_ms"]))
    w("")
    out += flooding_table(f["flooding"], d["flood_p99_ratio"], events)
    w("### Goals")
    w("")
    w("| goal | now | |")
    w("|---|---|---|")
    w("| one write-side syscall per delivered line | %.3f | %s |" % (
        d["daemon_write_side_syscalls_per_delivered_line"], met(d["daemon_write_side_syscalls_per_delivered_line"] <= 1.0)))
    w("| instructions per delivered line within 1.5× of the relay's (%d clients) | %.1f× | %s |" % (clients,
        d["ratio_instructions_per_delivered_line"], met(d["ratio_instructions_per_delivered_line"] <= 1.5)))
    if "ratio_instructions_per_delivered_line_many" in d:
        w("| (beside it: the same goal with %d clients listening) | %.2f× | %s |" % (
            d["many_clients"], d["ratio_instructions_per_delivered_line_many"], met(d["ratio_instructions_per_delivered_line_many"] <= 1.5)))
    if "ratio_marginal_instructions_per_delivered_line" in d:
        w("| (beside it: the instructions a delivered line adds, within 1.5× of the relay's) | %.2f× | %s |" % (
            d["ratio_marginal_instructions_per_delivered_line"], met(d["ratio_marginal_instructions_per_delivered_line"] <= 1.5)))
    w("| 0 instructions at rest | %s | %s |" % (number(d["daemon_rest_instructions"]), met(d["daemon_rest_instructions"] == 0)))
    w("| ≤ 8 MiB RSS at rest (the highest reading) | %s KiB | %s |" % (number(d["rss_rest_kib"]), met(d["rss_rest_kib"] <= 8192)))
    w("| ≤ 10 MiB RSS serving %d clients | %s KiB | %s |" % (clients, number(d["rss_spin_kib"]), met(d["rss_spin_kib"] <= 10240)))
    ratios = [v for k, v in d["flood_p99_ratio"].items() if k != "none"]
    worst = float("inf") if None in ratios else max(ratios)
    w("| a quiet client's p99 within 2× beside any flooder | %s | %s |" % (
        "%.2f× (worst)" % worst if worst != float("inf") else "disconnected beside one", met(worst <= 2)))
    return "\n".join(out) + "\n"


BEGIN, END = "<!-- generated by run.sh: begin -->", "<!-- generated by run.sh: end -->"


def write(path, text):
    with open(path) as f:
        document = f.read()
    if BEGIN not in document:
        raise SystemExit("%s has no generated section (%s ... %s)" % (path, BEGIN, END))
    head, rest = document.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


def check(d, baseline_path):
    with open(baseline_path) as f:
        base = json.load(f)
    worse = []
    for key, tolerance, floor in CHECKED:
        if key in base:
            limit = base[key] * (1 + tolerance) + floor
            status = "regressed" if d[key] > limit else "improved: update the baseline" if d[key] < base[key] * (1 - tolerance) else "ok"
            print("%-48s %14s  baseline %14s  %s" % (key, d[key], base[key], status))
            if status == "regressed":
                worse.append(key)
    for key in worse:
        print("regressed: %s %s -> %s (more than 5 %% worse)" % (key, base[key], d[key]), file=sys.stderr)
    return not worse


def main():
    args = sys.argv[1:]
    with open(args[0]) as f:
        figures = json.load(f)
    if "--flooding" in args:  # measure.py --flooding-only: the section alone, on standard output
        rows = figures["flooding"]
        print("\n".join(flooding_table(rows, flood_ratios(rows), rows[0]["quiet"]["expected_per_client"])))
        return
    d = derive(figures)
    ok = True
    for option, value in zip(args[1::2], args[2::2]):
        if option == "--write":
            write(value, render(figures, d))
        elif option == "--check":
            ok = check(d, value) and ok
        elif option == "--update-baseline":
            with open(value, "w") as f:
                json.dump({key: d[key] for key, _, _ in CHECKED}, f, indent=1)
                f.write("\n")
        else:
            raise SystemExit("report.py: unknown option " + option)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
