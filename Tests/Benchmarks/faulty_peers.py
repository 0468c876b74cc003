#!/usr/bin/env python3
# Each bridge against a faulty peer, with the release binaries: RSS peak and CPU share over 2 s,
# and the time from SIGTERM to exit. Issue 33's bounds: under 20 MB, near-zero CPU, under 100 ms.
#   swift build -c release --product flywheel && swift build -c release --product flywheeld
#   python3 Tests/Benchmarks/faulty_peers.py .build/release
import os, socket, subprocess, sys, tempfile, threading, time, signal
B = sys.argv[1]
d = tempfile.mkdtemp()
S = d + "/fw.sock"
daemon = subprocess.Popen([B + "/flywheeld", "--no-devices", "--quiet", "--socket", S])
while not os.path.exists(S): time.sleep(0.05)

def rss(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"): return int(line.split()[1])
    return 0
def cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def measure(name, argv, stdin=None, settle=1.0, window=2.0):
    p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(settle)
    c0, t0, peak = cpu(p.pid), time.monotonic(), 0
    while time.monotonic() - t0 < window:
        peak = max(peak, rss(p.pid)); time.sleep(0.05)
    share = (cpu(p.pid) - c0) / (time.monotonic() - t0)
    k = time.monotonic(); p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=5); ms = (time.monotonic() - k) * 1000
    except subprocess.TimeoutExpired:
        p.kill(); ms = float("inf")
    print("%-44s RSS peak %6.1f MB  CPU %5.1f %%  SIGTERM to exit %7.1f ms" % (name, peak / 1024, share * 100, ms))

def server(handler):
    s = socket.create_server(("127.0.0.1", 0)); port = s.getsockname()[1]
    def run():
        while True:
            try: c, _ = s.accept()
            except OSError: return
            threading.Thread(target=handler, args=(c,), daemon=True).start()
    threading.Thread(target=run, daemon=True).start()
    return port
def silent(c):
    c.send(b"OK MPD 0.23.5\n"); time.sleep(99)
def endless(c):
    c.send(b"OK MPD 0.23.5\n")
    try:
        while True: c.send(b"x" * 65536)
    except OSError: pass
def stall(c):
    c.send(b"OK MPD 0.23.5\n"); c.recv(100); c.send(b"volume: 50\nstate: pl"); time.sleep(99)
def never(c): time.sleep(99)

for name, handler in [("mpd: silent after its greeting", silent), ("mpd: an endless line", endless), ("mpd: stalled mid-answer", stall)]:
    measure(name, [B + "/flywheel", "mpd", "--socket", S, "--mpd", "127.0.0.1:%d" % server(handler)])
measure("mqtt: a broker that never answers CONNECT", [B + "/flywheel", "mqtt", "--socket", S, "--broker", "127.0.0.1:%d" % server(never)])
# connect: the daemon stopped while pings pour in.
r, w = os.pipe()
os.kill(daemon.pid, signal.SIGSTOP)
def pour():
    try:
        while True: os.write(w, b'{"cmd":"ping"}\n' * 4000)
    except OSError: pass
threading.Thread(target=pour, daemon=True).start()
measure("connect: daemon stopped, 60,000+ pings piped", [B + "/flywheel", "connect", "--socket", S], stdin=r)
os.kill(daemon.pid, signal.SIGCONT)
# midi: a FIFO that nobody reads (opened read-write here so the bridge's open succeeds).
fifo = d + "/midi"; os.mkfifo(fifo); holder = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
try:
    while True: os.write(holder, b"\0" * 4096)  # full: the port takes no byte
except BlockingIOError: pass
measure("midi --clock: a FIFO nobody reads", [B + "/flywheel", "midi", "--socket", S, "--device", fifo, "--clock"])
# osc: nothing listening.
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0)); port = u.getsockname()[1]; u.close()
measure("osc: nothing listening", [B + "/flywheel", "osc", "--socket", S, "--to", "127.0.0.1:%d" % port])
daemon.terminate()
