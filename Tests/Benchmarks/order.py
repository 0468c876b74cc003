"""The daemon's symbol order (udev/flywheeld.order): the functions of flywheeld that run from start
through serving clients, gathered with callgrind, one linkage name a line: those in sections of
their own, sorted by name, then those a library object's one .text section also defines.

The release link (Package.swift, with lld) places these functions first and together in .text.
The kernel maps a program's text in 64 KiB blocks around each page it faults in (fault-around), and
the code a daemon runs is otherwise spread over its whole 6 MiB text (the Swift runtime's
functions in library order, then each module's), so that nearly every block was mapped: placed
together, the code it runs fills a few blocks and the rest of the text is never mapped.

    python3 Tests/Benchmarks/order.py DAEMON CLI NATIVE_DIR WORK_DIR > udev/flywheeld.order

DAEMON must be unstripped (callgrind names functions from its symbol table); run.sh --update-order
builds it, compiles the C tools and calls this. What runs: start to READY, at rest with 15 clients
watching frames, every client command once, latency.sim to 16 clients, spin.sim with 60 Hz frames
and the daemon started with device discovery (the machine's input devices, if any). A function
not run here still works; its first call maps one more block.
"""
import json, os, re, socket, subprocess, sys, time

from measure import LATENCY, SPIN, COUNT_CLIENTS, scenario_events
from servers import Tools, Harness, start_daemon

COMMANDS = [
    b'{"cmd":"ping"}', b'{"cmd":"get"}', b'{"cmd":"watch","frames":true}', b'{"cmd":"tap"}',
    b'{"cmd":"set","control":"tempo","bpm":96}', b'{"cmd":"set","control":"scrub","duration":214,"position":12}',
    b'{"cmd":"set","control":"volume","volume":40}', b'{"cmd":"set","control":"mode","mode":"scrub"}',
    b'{"cmd":"nonsense"}', b'not json',
]


def executed(callgrind_file, binary):
    """Linkage names of the binary's functions with instructions counted in a callgrind output file."""
    names, objects = {}, {}
    current, in_binary, after_call = None, False, False
    ran = set()
    with open(callgrind_file, errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                found = compressed(line[3:], objects)
                in_binary = found is not None and os.path.realpath(found) == binary
            elif line.startswith("fn="):
                current = compressed(line[3:], names)
                after_call = False
            elif line.startswith("cfn="):  # a callee's name may be defined here first
                compressed(line[4:], names)
            elif line.startswith("cob="):
                compressed(line[4:], objects)
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if after_call:
                    after_call = False  # the call's inclusive cost, not the function's own
                elif current and in_binary:
                    ran.add(current)
    # callgrind marks a recursive call's level with 'N after the name
    return {re.sub(r"'\d+$", "", name) for name in ran if not name.startswith(("0x", "("))}


def compressed(text, table):
    """Callgrind's name compression: "(id) name" defines, "(id)" refers."""
    text = text.strip()
    match = re.match(r"\((\d+)\)(?: (.*))?$", text)
    if not match:
        return text
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table.get(match.group(1))


def unsplit_functions(build_folder):
    """Functions with a definition in an object's one `.text` section rather than in a section of
    their own: a few objects of the static libraries linked in (the Swift runtime's, the C++
    library) are built so. The linker moves every section that defines a listed name, so listing
    one moves that whole section too, up to 1.6 MiB of mostly idle code. The same name is often
    defined in sections of their own elsewhere as well (small helpers every Swift object has, such
    as value witnesses and outlined copies)."""
    info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True).stdout)
    static = os.path.join(os.path.dirname(info["paths"]["runtimeResourcePath"]), "swift_static", "linux")
    files = [os.path.join(static, name) for name in sorted(os.listdir(static)) if name.endswith(".a")]
    cxx = subprocess.run(["cc", "-print-file-name=libstdc++.a"], capture_output=True, text=True).stdout.strip()
    if os.path.isabs(cxx) and os.path.exists(cxx):
        files.append(os.path.realpath(cxx))
    for folder in sorted(os.listdir(build_folder)):
        if folder.endswith(".build"):
            objects = os.path.join(build_folder, folder)
            files += [os.path.join(objects, name) for name in sorted(os.listdir(objects)) if name.endswith(".o")]
    unsplit = set()
    for start in range(0, len(files), 200):
        listing = subprocess.run(["readelf", "-sSW"] + files[start:start + 200], capture_output=True, text=True, errors="replace").stdout
        sections = {}
        for line in listing.splitlines():
            if line.startswith("File: "):
                sections = {}
            elif (section := re.match(r"\s*\[\s*(\d+)\] (\S+)", line)):
                sections[section.group(1)] = section.group(2)
            elif (symbol := re.match(r"\s*\d+: [0-9a-f]+\s+(?:\d+|0x[0-9a-f]+) FUNC\s+\S+\s+\S+\s+(\d+) (\S+)", line)):
                name = sections.get(symbol.group(1), "")
                if name == ".text":
                    unsplit.add(symbol.group(2))
    return unsplit


def commands(sock):
    """Every client command once, on one connection, then a ping: returns once its pong (the
    second: the commands have one) is read."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(sock)
    client.settimeout(10)
    client.sendall(b"".join(command + b"\n" for command in COMMANDS) + b'{"cmd":"ping"}\n')
    replies = client.makefile("rb")
    pongs = 0
    while pongs < 2:
        line = replies.readline()
        if not line:
            raise RuntimeError("flywheeld closed the connection before answering every command")
        pongs += b'"class":"pong"' in line
    client.close()


def order(daemon, cli, native, work):
    """The order: the linkage names of the functions that ran, in the order the link places them."""
    binary = os.path.realpath(daemon)
    tools = Tools(daemon, cli, native, work)
    tools.callgrind_options = ["--demangle=no"]
    files = []

    def run(args, clients, expect, frames, scripted=None):
        server = start_daemon(tools, args, kind="callgrind")
        if scripted:
            scripted(server.sock)
        harness = Harness(tools, server.sock, clients, expect, frames=frames, hold=True)
        harness.release()
        if expect:
            harness.result()
            harness.close()
        else:  # at rest nothing is sent: the clients watch for a while, then go
            time.sleep(2)  # an interval of wall time at rest, measured; not synchronisation
            harness.proc.kill()
            harness.proc.wait()
        server.stop()
        base = os.path.basename(server.callgrind_out)
        files.extend(path for path in os.listdir(work) if path == base or path.startswith(base + "."))

    print("order: start, commands, and clients watching frames", file=sys.stderr)
    run(["--no-devices", "--frames", "60"], COUNT_CLIENTS - 1, 0, True, scripted=commands)
    print("order: the machine's devices", file=sys.stderr)
    run(["--frames", "60"], 1, 0, True)
    print("order: latency.sim to %d clients" % COUNT_CLIENTS, file=sys.stderr)
    run(["--simulate", LATENCY, "--hold-until-clients", str(COUNT_CLIENTS), "--frames", "0"], COUNT_CLIENTS,
        len(scenario_events(tools, LATENCY)), False)
    print("order: spin.sim with 60 Hz frames", file=sys.stderr)
    run(["--simulate", SPIN, "--hold-until-clients", str(COUNT_CLIENTS), "--frames", "60"], COUNT_CLIENTS,
        len(scenario_events(tools, SPIN)), True)

    ran = set()
    for name in files:
        ran |= executed(os.path.join(work, name), binary)
    if len(ran) < 1000:
        sys.exit("order.py: only %d functions of %s ran: is it stripped?" % (len(ran), daemon))
    # Functions in sections of their own first, together; then the names a library's one .text
    # section also defines, so that the sections they move come after the block, not inside it.
    unsplit = unsplit_functions(os.path.dirname(binary))
    print("order: %d functions, then %d whose names a library object's one .text section also defines"
          % (len(ran - unsplit), len(ran & unsplit)), file=sys.stderr)
    return sorted(ran - unsplit) + sorted(ran & unsplit)


def main():
    for name in order(*sys.argv[1:5]):
        print(name)


if __name__ == "__main__":
    main()
