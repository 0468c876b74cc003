"""Starting what the benchmarks measure — flywheeld and the C relay, bare or under callgrind or
strace — and the native latency harness that measures them. Orchestration only: no Python runs in
a measured path (the harness, the relay and the flooders are C, built by run.sh)."""
import json, os, re, signal, socket, subprocess, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HARDWARE = os.path.join(ROOT, "hardware")


class Tools:
    """Where things are: the daemon and CLI, the C tools run.sh compiled, a scratch directory."""

    def __init__(self, daemon, cli, native, work):
        self.daemon, self.cli, self.native, self.work = daemon, cli, native, work
        self.serial = 0
        self.callgrind_options = []  # order.py's: linkage names, not demangled ones

    def path(self, name):
        self.serial += 1
        return os.path.join(self.work, "%s-%d" % (name, self.serial))

    def tool(self, name):
        return os.path.join(self.native, name)


class Server:
    """A running flywheeld or relay: its process, socket, and (under callgrind) a way to dump counts."""

    def __init__(self, proc, sock, callgrind_out=None, trace=None):
        self.proc, self.sock, self.callgrind_out, self.trace, self.dumps = proc, sock, callgrind_out, trace, 0

    def dump(self):
        """Dumps callgrind's counts since the last dump (which zeroes them) and returns them."""
        subprocess.run(["callgrind_control", "-d", str(self.proc.pid)], check=True, capture_output=True)
        self.dumps += 1
        with open("%s.%d" % (self.callgrind_out, self.dumps)) as f:
            return int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))

    def stop(self):
        if self.trace:  # strace detaches when terminated: end the program it traces first
            with open("/proc/%d/task/%d/children" % (self.proc.pid, self.proc.pid)) as f:
                for child in f.read().split():
                    os.kill(int(child), signal.SIGTERM)
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def wrapper(tools, kind, env):
    """The command prefix for `kind` (None, "callgrind" or "strace") and where its output goes."""
    if kind == "callgrind":
        out = tools.path("callgrind.out")
        return ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + tools.callgrind_options, out
    if kind == "strace":
        out = tools.path("strace")
        prefix = ["strace", "-f", "-ttt", "-o", out]
        for key, value in env.items():  # for the traced program only, not strace itself
            prefix += ["-E", "%s=%s" % (key, value)]
        return prefix, out
    return [], None


def start_daemon(tools, args, kind=None, env=None, binary=None):
    """flywheeld on a fresh socket, returned once it has said READY=1 (with the nanoseconds it took)."""
    env = env or {}
    sock = tools.path("flywheel.sock")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(sock + ".notify")
    notify.settimeout(300)
    prefix, out = wrapper(tools, kind, env)
    full_env = dict(os.environ, NOTIFY_SOCKET=sock + ".notify", **({} if kind == "strace" else env))
    started = time.monotonic_ns()
    proc = subprocess.Popen(prefix + [binary or tools.daemon, "--socket", sock, "--hardware", HARDWARE] + args, env=full_env,
                            stderr=subprocess.DEVNULL if kind == "callgrind" else None)
    message = notify.recv(100)
    ready_ns = time.monotonic_ns() - started
    notify.close()
    assert message == b"READY=1", message
    server = Server(proc, sock, out, trace=out if kind == "strace" else None)
    server.ready_ns = ready_ns
    return server


def start_relay(tools, clients, schedule, stamp_at_write=False, kind=None, env=None):
    """The C relay for `clients`, playing `schedule`, returned once it listens."""
    env = env or {}
    sock = tools.path("relay.sock")
    prefix, out = wrapper(tools, kind, env)
    proc = subprocess.Popen(prefix + [tools.tool("relay"), sock, str(clients), schedule] + (["--stamp-at-write"] if stamp_at_write else []),
                            stdout=subprocess.PIPE, env=dict(os.environ, **({} if kind == "strace" else env)),
                            stderr=subprocess.DEVNULL if kind == "callgrind" else None)
    assert proc.stdout.readline() == b"ready\n"
    return Server(proc, sock, out, trace=out if kind == "strace" else None)


class Harness:
    """The native latency harness (latency_client.c) on a server's socket."""

    def __init__(self, tools, sock, clients, expect, frames=False, hold=False, timeout=300):
        self.hold = hold
        args = [tools.tool("latency_client"), sock, str(clients), str(expect), "--timeout", str(timeout)]
        self.proc = subprocess.Popen(args + (["--frames"] if frames else []) + (["--hold"] if hold else []),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if hold:
            assert self.proc.stdout.readline() == b"held\n", "the harness could not connect its clients"

    def release(self):
        """Connects the last client (the server starts playing)."""
        self.proc.stdin.write(b"go\n")
        self.proc.stdin.flush()

    def result(self):
        """The harness's figures, once every client has its lines (connections still open when held)."""
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the latency harness ended without figures")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def measure(tools, sock, clients, expect, frames=False):
    """Runs the harness to the end and returns its figures."""
    harness = Harness(tools, sock, clients, expect, frames=frames)
    figures = harness.result()
    harness.close()
    return figures


def flooder(tools, sock, mode):
    proc = subprocess.Popen([tools.tool("flood_client"), sock, mode], stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"flooding\n"
    return proc


def syscalls(trace, since, until):
    """Syscalls by name in an strace -f -ttt file between two wall-clock times."""
    counts = {}
    pattern = re.compile(r"^(?:\d+\s+)?(\d+\.\d+)\s+(\w+)\(")
    with open(trace) as f:
        for line in f:
            match = pattern.match(line)
            if match and since <= float(match.group(1)) <= until:
                counts[match.group(2)] = counts.get(match.group(2), 0) + 1
    return counts


def allocations(counter_file):
    """(allocations, frees, bytes) so far, from alloc_count.c's counter file."""
    with open(counter_file, "rb") as f:
        data = f.read(24)
    return tuple(int.from_bytes(data[i:i + 8], "little") for i in (0, 8, 16))


def proc_figures(pid):
    """CPU seconds (user + system), context switches, and VmRSS/VmHWM/Rss/Pss/Anonymous in KiB of a process."""
    with open("/proc/%d/stat" % pid) as f:
        parts = f.read().rsplit(")", 1)[1].split()
    figures = {"cpu_seconds": (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
                figures["context_switches"] = figures.get("context_switches", 0) + int(value)
            if key in ("VmRSS", "VmHWM"):
                figures[key] = int(value.split()[0])
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("Rss", "Pss", "Anonymous"):
                figures[key] = int(value.split()[0])
    return figures
