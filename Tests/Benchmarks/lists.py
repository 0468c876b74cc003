#!/usr/bin/env python3
"""The daemon's two hand-kept lists checked against what the daemon runs (run.sh --check-lists, in CI):

  lists.py DAEMON CLI NATIVE_DIR WORK_DIR ORDER_FILE

- The order (udev/flywheeld.order, which the release link places first and together): made again
  from a fresh profile (order.py) and compared. A function that runs but is not listed maps one
  more 64 KiB block of text (about 1.6 MiB of RSS at rest between no order and a fresh one), and a
  listed name the code no longer has is skipped: more than ORDER_SLACK of either is a stale order.
  A run's functions vary a little with timing (a client's backpressure, a wake-up that finds two
  events): ORDER_SLACK allows for that.
- HotPathTypes (Sources/FlywheelCore/Pipeline/HotPathTypes.swift, the generic types the event path
  needs, made ready at start-up): after READY, in the scenario's window of latency.sim and of
  spin.sim with frames, callgrind must count no instructions in the runtime's building of a type's
  metadata from its mangled name. Each one there is a type the event path builds the first time it
  needs it (5,000 to 25,000 instructions each, on the latency of a knob's first detent or first
  motion of a kind): the Swift code that asked is named, and either the type goes into
  HotPathTypes.prepare() or the code stops asking for it (an array literal built on the way).

DAEMON must be unstripped (callgrind names functions from its symbol table), as release-build.sh
leaves it. Exits 1 naming what is stale."""
import os, re, subprocess, sys

from measure import LATENCY, SPIN, COUNT_CLIENTS, scenario_events
from order import compressed, order
from servers import Harness, Tools, start_daemon

ORDER_SLACK = 12  # functions that run but are not listed, or listed but gone (of about 1,300)
# The runtime's functions that build a type's metadata the first time it is asked for.
BUILDING = re.compile(r"swift_getTypeByMangledName|swift_getTypeByMangledNode|MetadataCacheEntryBase.*doInitialization")
# How Swift code asks for a type's metadata (a cache hit costs a few instructions).
ENTRY = re.compile(r"^(__swift_instantiate|swift_getGenericMetadata|swift_getCanonical|swift_getTypeByMangledName)")


def building(callgrind_file):
    """In a callgrind output file: the instructions the runtime spent building metadata (its own,
    0 when it built none), and Swift code's calls that ask for metadata, the likely askers
    (caller name -> [calls, their instructions]; a cache hit costs a few instructions a call)."""
    names, files = {}, {}
    current, callee, calls, spent, callers = None, None, 0, 0, {}
    with open(callgrind_file, errors="replace") as f:
        for line in f:
            if line.startswith("fn="):
                current, callee = compressed(line[3:], names), None
            elif line.startswith("cfn="):
                callee = compressed(line[4:], names)
            elif line.startswith(("ob=", "cob=", "fl=", "fi=", "fe=", "cfi=", "cfl=")):
                compressed(line.split("=", 1)[1], files)
            elif line.startswith("calls="):
                calls = int(line[6:].split()[0])
            elif line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                cost = int(fields[1]) if len(fields) > 1 else 0
                if callee is None:  # the function's own instructions
                    if current and BUILDING.search(current):
                        spent += cost
                elif current and current.startswith("$s") and ENTRY.search(callee):
                    entry = callers.setdefault(current, [0, 0])
                    entry[0] += calls
                    entry[1] += cost
                callee = None
    return spent, callers


def demangled(name):
    try:
        return subprocess.run(["swift-demangle", "--compact", name], capture_output=True, text=True).stdout.strip() or name
    except OSError:
        return name


def hot_path_types(tools):
    """Problems: each scenario window that built metadata, with its callers."""
    problems = []
    for scenario, frames in ((LATENCY, 0), (SPIN, 60)):
        events = len(scenario_events(tools, scenario))
        server = start_daemon(tools, ["--simulate", scenario, "--hold-until-clients", str(COUNT_CLIENTS), "--frames", str(frames)],
                              kind="callgrind")
        harness = Harness(tools, server.sock, COUNT_CLIENTS, events, frames=frames > 0, hold=True)
        server.dump()  # start, READY and the clients' connections: not the event path
        harness.release()
        harness.result()
        server.dump()
        window = "%s.%d" % (server.callgrind_out, server.dumps)
        harness.close()
        server.stop()
        spent, callers = building(window)
        name = os.path.basename(scenario) + (" with frames" if frames else "")
        print("lists: %s: %d instructions of the runtime's own building metadata after READY" % (name, spent), file=sys.stderr)
        if spent:
            # The askers that cost most a call first: a call that built something costs thousands.
            ranked = sorted(callers.items(), key=lambda item: -item[1][1] / max(item[1][0], 1))[:12]
            lines = ["  %8d instructions in %6d calls  %s" % (cost, count, demangled(caller)) for caller, (count, cost) in ranked]
            problems.append("%s built type metadata on the event path; add the types these ask for to "
                            "HotPathTypes.prepare() (Sources/FlywheelCore/Pipeline/HotPathTypes.swift):\n%s" % (name, "\n".join(lines)))
    return problems


def order_file(daemon, cli, native, work, path):
    with open(path) as f:
        listed = [line.strip() for line in f if line.strip()]
    scratch = os.path.join(work, "order")
    os.makedirs(scratch, exist_ok=True)
    fresh = order(daemon, cli, native, scratch)
    missing = sorted(set(fresh) - set(listed))
    gone = sorted(set(listed) - set(fresh))
    print("lists: %s: %d functions listed, %d run now; %d run but not listed, %d listed but not run"
          % (path, len(listed), len(fresh), len(missing), len(gone)), file=sys.stderr)
    if len(missing) > ORDER_SLACK or len(gone) > ORDER_SLACK:
        sample = "\n".join("  run, not listed: %s" % demangled(n) for n in missing[:20])
        sample += "\n" + "\n".join("  listed, not run: %s" % demangled(n) for n in gone[:20])
        return ["%s is stale (%d functions run that it does not list, %d listed that no longer run; %d allowed for "
                "timing): make it again with `bash Tests/Benchmarks/run.sh --update-order`\n%s"
                % (path, len(missing), len(gone), ORDER_SLACK, sample)]
    return []


def main():
    daemon, cli, native, work, path = sys.argv[1:6]
    tools = Tools(daemon, cli, native, work)
    tools.callgrind_options = ["--demangle=no"]
    problems = hot_path_types(tools) + order_file(daemon, cli, native, work, path)
    for problem in problems:
        print("lists: " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
