#!/usr/bin/env python3
"""The system lane's tests. Runs INSIDE the lane's Debian 12 guest (Tests/system/lane.sh), as root,
started by systemd once the guest has booted, with the job folder at /job. Two boots: the first
installs the package and tries it; the second checks what a reboot keeps, then removes and purges it.

Usage (inside the guest): system_lane.py PACKAGE.deb"""

import base64
import fcntl
import grp
import json
import os
import pwd
import socket
import struct
import subprocess
import sys
import time
import traceback
import urllib.request

from kernel_lane import Client, Failure, check   # the kernel lane's socket client, copied beside this file

JOB = "/job"
DEB = os.path.join(JOB, sys.argv[1])
STATE = "/var/lib/flywheel-lane"        # on the guest's disk: survives the reboot
SOCKET = "/run/flywheel/flywheel.sock"
SCENARIOS = "/usr/share/flywheel/hardware/scenarios"
USER = "listener"                       # a user in the audio group, as a player would run
TIMEOUT = 60.0
# A Contour jog wheel's REL_DIAL is its counter's value: the first report after the device is opened
# is the reference the next are measured from, so each plug-in loses the first detent turned.
FIRST_COUNTER_REPORT = 1


def say(text):
    print(text, flush=True)


def run(argv, check_status=True, **options):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=300, **options)
    if check_status and result.returncode != 0:
        raise Failure("%s exited %d: %s%s" % (" ".join(argv), result.returncode, result.stdout[-2000:], result.stderr[-2000:]))
    return result


def apt(arguments):
    """apt-get -y ARGUMENTS; prints the steps that took over 2 s (the lane's time goes somewhere)."""
    process = subprocess.Popen(["apt-get", "-y"] + arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    lines, last = [], time.monotonic()
    for line in process.stdout:
        now = time.monotonic()
        lines.append((now - last, line.rstrip()))
        last = now
    status = process.wait()
    for took, line in lines:
        if took > 2:
            say("    %.1f s before: %s" % (took, line))
    check(status == 0, "apt-get %s exited %d: %s" % (" ".join(arguments), status, "\n".join(l for _, l in lines[-20:])))


def systemctl(*arguments):
    return run(["systemctl"] + list(arguments), check_status=False).stdout.strip()


def property_of(unit, name):
    return systemctl("show", "-p", name, "--value", unit)


def wait_until(predicate, what, timeout=TIMEOUT):
    """Waits for a state no event announces (a unit becoming active), looking every 0.1 s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise Failure("timed out waiting until " + what)
        time.sleep(0.1)


def connect(user=USER):
    """A client connected with `user`'s credentials (its uid, gid and groups at connect(2), where the
    socket's permissions are checked); the test keeps reading it as root."""
    entry = pwd.getpwnam(user)
    groups = os.getgroups()
    os.setgroups(os.getgrouplist(user, entry.pw_gid))
    os.setegid(entry.pw_gid)
    os.seteuid(entry.pw_uid)
    try:
        return Client(SOCKET)
    finally:
        os.seteuid(0)
        os.setegid(0)
        os.setgroups(groups)


def play(scenario, linger="0.5"):
    """Plugs in the scenario's device with uinput, plays it, unplugs it; returns its node."""
    sim = subprocess.Popen(["flywheel", "sim", os.path.join(SCENARIOS, scenario), "--uinput", "--linger", linger],
                           stderr=subprocess.PIPE, text=True)
    line = sim.stderr.readline()   # "flywheel: … plays on /dev/input/eventN"
    node = line.strip().rsplit(" ", 1)[-1]
    status = sim.wait(timeout=TIMEOUT)
    check(status == 0 and node.startswith("/dev/input/event"), "flywheel sim --uinput: %s%s" % (line, sim.stderr.read()))
    return node


def truth(scenario):
    return int(run(["flywheel", "sim", os.path.join(SCENARIOS, scenario), "--truth"]).stdout)


def daemon_pid():
    return int(property_of("flywheeld.service", "MainPID"))


def status_fields(pid):
    with open("/proc/%d/status" % pid) as f:
        return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)


LANE_CONFIG = """// The system lane's configuration.
{
  feel: { min_fling_speed: 1000 },   // no coasting and (below) no acceleration: the tempo moves exactly by the detents turned
  controls: { tempo: { range: [%d, %d], bpm: 120, acceleration: "off" }, mode: { segments: ["tempo", "scrub"] } },
}
"""

# Phase 1: the first boot.

def test_install():
    """apt installs the package offline: the gpio group, the socket enabled and listening, nothing else running."""
    check(grp.getgrnam("audio") and not any(g.gr_name in ("gpio", "uinput") for g in grp.getgrall()), "plain Debian 12 has no gpio or uinput group")
    started = time.monotonic()
    apt(["install", "--no-install-recommends", DEB])
    say("    apt-get install took %.1f s" % (time.monotonic() - started))
    check(grp.getgrnam("gpio").gr_gid > 0, "no gpio group")
    check(os.path.exists("/var/lib/flywheel/gpio-group-created"), "the package did not note that it made the group")
    check(systemctl("is-enabled", "flywheeld.socket") == "enabled", "flywheeld.socket is not enabled")
    check(systemctl("is-active", "flywheeld.socket") == "active", "flywheeld.socket is not listening")
    check(systemctl("is-active", "flywheeld.service") == "inactive", "flywheeld.service runs with no device and no client")
    check(systemctl("is-enabled", "flywheel-mpd.service") == "disabled", "flywheel-mpd.service should be left disabled")
    info = os.stat(SOCKET)
    check(oct(info.st_mode & 0o777) == "0o660" and info.st_gid == grp.getgrnam("audio").gr_gid, "the socket is not audio, 0660")
    check(run(["flywheeld", "--version"]).stdout.startswith("flywheeld "), "/usr/bin/flywheeld does not run")
    run(["useradd", "--no-create-home", "--groups", "audio", USER])
    with open("/etc/flywheel/flywheel.json5", "w") as f:
        f.write(LANE_CONFIG % (20, 300))
    run(["flywheeld", "--check-config"])


def test_udev_starts_daemon():
    """A ShuttleXpress plugged in: udev names and tags it and systemd starts flywheeld, which takes it."""
    run(["modprobe", "uinput"])
    sim = subprocess.Popen(["flywheel", "sim", os.path.join(SCENARIOS, "shuttle-wrap.sim"), "--uinput", "--linger", "0.5"],
                           stderr=subprocess.PIPE, text=True)
    line = sim.stderr.readline()
    node = line.strip().rsplit(" ", 1)[-1]
    check(node.startswith("/dev/input/event"), "flywheel sim said: %r" % line)
    run(["udevadm", "settle"])
    properties = dict(l.split("=", 1) for l in run(["udevadm", "info", "--query=property", "--name=" + node]).stdout.split("\n") if "=" in l)
    check(properties.get("ID_FLYWHEEL") == "1" and properties.get("ID_FLYWHEEL_PROFILE") == "shuttlexpress", "udev properties: %s" % properties)
    check("/dev/input/flywheel-shuttlexpress" in properties.get("DEVLINKS", ""), "no /dev/input/flywheel-shuttlexpress: %s" % properties.get("DEVLINKS"))
    check(":systemd:" in properties.get("TAGS", "") and ":uaccess:" in properties.get("TAGS", ""), "tags: %s" % properties.get("TAGS"))
    wait_until(lambda: systemctl("is-active", "flywheeld.service") == "active", "udev's SYSTEMD_WANTS started flywheeld.service")
    status = sim.wait(timeout=TIMEOUT)   # it waits for a reader: flywheeld took the device
    check(status == 0, "flywheel sim: %s" % sim.stderr.read())
    log = run(["journalctl", "-b", "-u", "flywheeld.service", "-o", "cat"]).stdout
    check("flywheeld" in run(["ps", "-o", "comm=", "-p", str(daemon_pid())]).stdout, "MainPID is not flywheeld: %s" % log[-500:])


def test_socket_activation():
    """flywheeld stopped: the socket keeps listening, a client in the audio group starts it; others are refused."""
    # A tempo set just before the stop: the stop writes it at once (StateDirectory=flywheel, linked
    # to the private one a dynamic user gets). Not the first play's turns: flywheeld, just started by
    # udev on a slow guest, may set its event clock after they came, and the kernel drops what came.
    client = connect()
    client.next(lambda m: m["class"] == "hello")
    client.send({"cmd": "set", "control": "tempo", "bpm": 87})
    client.next(lambda m: m["class"] == "tempo" and m.get("bpm") == 87)
    client.sock.close()
    systemctl("stop", "flywheeld.service")
    check(systemctl("is-active", "flywheeld.service") == "inactive", "flywheeld.service did not stop")
    check(systemctl("is-active", "flywheeld.socket") == "active" and os.path.exists(SOCKET), "the socket went away with the service")
    listing = lambda: run(["ls", "-la", "/var/lib/", "/var/lib/private"], check_status=False).stdout
    check(os.path.islink("/var/lib/flywheel") and os.path.isfile("/var/lib/private/flywheel/state"),
          "no state saved at the stop: %s\n%s" % (listing(), run(["journalctl", "-b", "-u", "flywheeld.service", "-o", "cat"]).stdout[-1500:]))
    with open("/var/lib/flywheel/state") as f:
        saved = f.read()
    check('"bpm":87' in saved.replace(" ", ""), "the stop saved %r, not the tempo set just before it" % saved)
    # Removed, the next start is the configuration's, as the next tests count from.
    os.unlink("/var/lib/flywheel/state")
    try:
        connect("nobody")
        raise Failure("a user outside the audio group connected")
    except PermissionError:
        pass
    client = connect()
    hello = client.next(lambda m: m["class"] == "hello")
    check(systemctl("is-active", "flywheeld.service") == "active", "the connection did not start flywheeld.service")
    check(hello["devices"] == [], "devices at start: %s" % hello["devices"])
    client.sock.close()


CLIENT_OF_EVENTS = []


def test_events():
    """The jog wheel turned, a button tapped, turned again: the client sees tempo, then scrub events."""
    client = connect()
    CLIENT_OF_EVENTS.append(client)
    client.next(lambda m: m["class"] == "hello")
    client.send({"cmd": "set", "control": "scrub", "duration": 214, "position": 100})
    client.next(lambda m: m["class"] != "hello")
    play("shuttle-wrap.sim")
    added = client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "added")
    check(added["kind"] == "jog-shuttle", "device added: %s" % added)
    client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "removed")
    tempo = [m for m in client.seen if m["class"] == "tempo"]
    check(tempo and tempo[-1]["bpm"] == 120 + 10 - FIRST_COUNTER_REPORT, "tempo events: %s" % [(m["phase"], m["bpm"]) for m in tempo][-5:])
    # The -8 turn in scrub mode scrubs back from 100 s. (At 4 detents/s each detent is a gesture of
    # its own, let go within the 0.2 s arming time: each is cancelled and rolls back to 100 s.)
    client.next_or_seen(lambda m: m["class"] == "scrub" and m["phase"] in ("committed", "cancelled"), timeout=20)
    scrub = [m for m in client.seen if m["class"] == "scrub"]
    phases = [m["phase"] for m in scrub]
    check("began" in phases and any(m["phase"] == "moved" and m["position"] < 100 for m in scrub), "scrub events: %s" % phases)
    state = client.state()
    check(state["mode"]["active"] == "scrub" and state["tempo"]["bpm"] == 129, "state: %s" % state)
    say("    %d tempo and %d scrub events (%d began, %d committed, %d cancelled); the scrub rests at %s s" % (
        len(tempo), len(scrub), phases.count("began"), phases.count("committed"), phases.count("cancelled"), state["scrub"]["position"]))


def test_replug():
    """Unplugged and plugged in again: removed, added, the state kept (the scrub first, then the tempo)."""
    client = CLIENT_OF_EVENTS[0]
    before = client.state()
    play("shuttle-wrap.sim")
    client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "removed" and m["time"] > before["time"])
    actions = [m["action"] for m in client.seen if m["class"] == "device"]
    check(actions == ["added", "removed", "added", "removed"], "device messages: %s" % actions)
    # Mode was scrub: the +10 turn scrubs, the tap switches to the tempo, the -8 turn lowers it.
    client.next_or_seen(lambda m: m["class"] == "tempo" and m["phase"] == "settled" and m["bpm"] == 121 and m["time"] > before["time"], timeout=20)
    state = client.state()
    check(state["tempo"]["bpm"] == 121 and state["mode"]["active"] == "tempo", "state: %s" % state)


def test_reload():
    """`systemctl reload` applies a changed configuration to the running daemon; its client stays."""
    client = CLIENT_OF_EVENTS[0]
    pid = daemon_pid()
    with open("/etc/flywheel/flywheel.json5", "w") as f:
        f.write(LANE_CONFIG % (40, 200))
    check(client.state()["tempo"]["range"] == [20, 300], "the range changed before the reload")
    run(["systemctl", "reload", "flywheeld.service"])
    state = client.next(lambda m: m["class"] == "state" and m["tempo"]["range"] == [40, 200])
    check(state["tempo"]["bpm"] == 121 and daemon_pid() == pid, "after the reload: %s, pid %d → %d" % (state["tempo"], pid, daemon_pid()))


PROBE = r"""
import errno, json, os, socket
result = {}
for family in ("AF_INET", "AF_INET6", "AF_UNIX"):
    try:
        socket.socket(getattr(socket, family), socket.SOCK_STREAM).close(); result[family] = "ok"
    except OSError as error:
        result[family] = errno.errorcode[error.errno]
for path in %s:
    try:
        with open(path, "w") as f: f.write("x")
        result[path] = "ok"
    except OSError as error:
        result[path] = errno.errorcode[error.errno]
    if result[path] == "ok" and path != "/dev/null":
        os.unlink(path)
print(json.dumps(result))
"""
OUTSIDE = ["/etc/flywheel/probe", "/usr/probe", "/var/lib/probe", "/var/tmp/probe", "/tmp/probe", "/dev/shm/probe",
           "/root/probe", "/home/probe", "/run/probe", "/run/flywheel/probe", "/probe"]


def test_hardening():
    """The unit's sandbox holds: the daemon is unprivileged, has no network, no AF_INET, and writes no file."""
    pid = daemon_pid()
    fields = status_fields(pid)
    uid = int(fields["Uid"].split()[0])
    gid = int(fields["Gid"].split()[0])
    groups = {int(g) for g in fields["Groups"].split()}
    check(uid != 0 and fields["NoNewPrivs"] == "1" and fields["Seccomp"] == "2", "status: Uid %s NoNewPrivs %s Seccomp %s" % (fields["Uid"], fields["NoNewPrivs"], fields["Seccomp"]))
    check({grp.getgrnam("input").gr_gid, grp.getgrnam("gpio").gr_gid} <= groups, "groups %s" % groups)
    with open("/proc/%d/net/dev" % pid) as f:
        interfaces = [line.split(":")[0].strip() for line in f.readlines()[2:]]
    check(interfaces == ["lo"], "the daemon's network namespace has %s" % interfaces)
    # In the daemon's own mount namespace, as its user: no file takes a write (/dev/null, which the
    # device policy allows, shows that the probe's writes work).
    # Its state directory is the one place it writes (StateDirectory=flywheel).
    paths = OUTSIDE + ["/var/lib/flywheel/probe", "/dev/null"]
    inside = json.loads(run(["nsenter", "-t", str(pid), "-m", "-S", str(uid), "-G", str(gid), "python3", "-c", PROBE % paths]).stdout)
    written = [p for p in paths if inside[p] == "ok"]
    check(written == ["/var/lib/flywheel/probe", "/dev/null"], "in the daemon's namespace, writes succeeded at %s: %s" % (written, inside))
    # A program run with the unit's own sandbox (its [Service] settings, as systemd-run properties).
    with open("/usr/lib/systemd/system/flywheeld.service") as f:
        section = f.read().split("[Service]", 1)[1].split("\n[", 1)[0]
    properties = []
    for line in section.splitlines():
        key = line.split("=", 1)[0]
        # (Not StateDirectory=: the probe's own dynamic user would be given flywheeld's state directory.)
        if "=" not in line or line.startswith("#") or key in ("Type", "ExecStart", "ExecReload", "Restart", "RestartSec", "StateDirectory"):
            continue
        properties += ["-p", line]
    paths = OUTSIDE + ["/dev/null"]
    sandboxed = run(["systemd-run", "--wait", "--pipe", "--quiet"] + properties + ["/usr/bin/python3", "-c", PROBE % paths])
    outcome = json.loads(sandboxed.stdout)
    check(outcome["AF_INET"] == "EAFNOSUPPORT" and outcome["AF_INET6"] == "EAFNOSUPPORT" and outcome["AF_UNIX"] == "ok", "sockets: %s" % outcome)
    written = [p for p in paths if outcome[p] == "ok"]
    check(written == ["/dev/null"], "in the unit's sandbox, writes succeeded at %s: %s" % (written, outcome))
    say("    %d settings of the unit applied; AF_INET %s; writes refused: %s" % (len(properties) // 2, outcome["AF_INET"],
        ", ".join(sorted({outcome[p] for p in OUTSIDE}))))


def test_rest():
    """At rest with a client and no device: no CPU used; the resident memory is reported."""
    pid = daemon_pid()
    def ticks():
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    before = ticks()
    time.sleep(2.0)   # measuring that nothing runs, not waiting for anything
    used = ticks() - before
    check(used <= 2, "flywheeld used %d ticks of CPU in 2 s at rest" % used)
    say("    flywheeld at rest: VmRSS %s, %d CPU ticks in 2 s" % (status_fields(pid)["VmRSS"].strip(), used))


def test_osc_bridge():
    """flywheel-osc@127.0.0.1:PORT, as the package ships it (its own user, sandbox, reconnecting
    bridge), sends the tempo a client sets as an OSC message to a UDP receiver; SIGTERM stops it."""
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(TIMEOUT)
    unit = "flywheel-osc@127.0.0.1:%d.service" % receiver.getsockname()[1]
    systemctl("start", unit)
    def journal():
        return run(["journalctl", "-b", "-u", unit, "-o", "cat"], check_status=False).stdout
    wait_until(lambda: "connected to flywheeld" in journal(), unit + " connected to flywheeld")
    client = connect()
    client.next(lambda m: m["class"] == "hello")
    tempo = client.state()["tempo"]
    bpm = tempo["bpm"] + 1 if tempo["bpm"] + 1 <= tempo["range"][1] else tempo["bpm"] - 1
    client.send({"cmd": "set", "control": "tempo", "bpm": bpm})
    message, _ = receiver.recvfrom(1024)
    check(message == b"/flywheel/tempo\0,f\0\0" + struct.pack(">f", bpm), "%s sent %r for a tempo of %s" % (unit, message, bpm))
    uid = status_fields(int(property_of(unit, "MainPID")))["Uid"].split()[0]
    check(uid != "0", unit + " runs as root")
    systemctl("stop", unit)
    check(systemctl("is-active", unit) == "inactive", unit + " did not stop")
    check("stopping;" in journal(), "%s did not stop cleanly: %s" % (unit, journal()[-500:]))
    say("    %s (uid %s) sent /flywheel/tempo %s" % (unit, uid, bpm))
    client.sock.close()
    receiver.close()


def websocket_open(port):
    """A WebSocket client (RFC 6455, the standard library only): the connection, after the handshake."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
    reader = sock.makefile("rb")
    status = reader.readline()
    check(b" 101 " in status, "no WebSocket handshake: %r" % status)
    while reader.readline() not in (b"\r\n", b""):
        pass
    return sock, reader


def websocket_receive(reader):
    """The next text message, parsed as JSON."""
    first, length = reader.read(2)
    check(first == 0x81, "not a whole text frame: %#x" % first)
    if length == 126:
        length = struct.unpack(">H", reader.read(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", reader.read(8))[0]
    return json.loads(reader.read(length))


def websocket_send(sock, message):
    """One text message, masked as a client's must be."""
    payload, mask = json.dumps(message).encode(), os.urandom(4)
    check(len(payload) < 126, "a longer message than this test sends")
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def test_web_feed():
    """flywheel-web.service from the package: websocketd, on 127.0.0.1:8080 only, serves the page and,
    on a WebSocket, flywheel connect: flywheeld's hello, and a command's answer."""
    systemctl("start", "flywheel-web.service")
    def listening():
        with open("/proc/net/tcp") as f:
            rows = [line.split() for line in f.readlines()[1:]]
        return [row[1] for row in rows if row[3] == "0A" and row[1].endswith(":1F90")]
    wait_until(lambda: listening(), "flywheel-web.service listens on port 8080")
    check(listening() == ["0100007F:1F90"], "flywheel-web.service listens beyond loopback: %s" % listening())
    with open("/proc/net/tcp6") as f:
        check(not any(line.split()[1].endswith(":1F90") for line in f.readlines()[1:]), "flywheel-web.service listens on IPv6")
    page = urllib.request.urlopen("http://127.0.0.1:8080/flywheel.html", timeout=TIMEOUT).read()
    check(b'id="tempo"' in page and b"WebSocket" in page, "the page served is not flywheel.html")
    sock, reader = websocket_open(8080)
    hello = websocket_receive(reader)
    check(hello["class"] == "hello", "the first message is %s, not the hello" % hello)
    websocket_send(sock, {"cmd": "ping"})
    answer = websocket_receive(reader)
    while answer["class"] != "pong":
        answer = websocket_receive(reader)
    sock.close()
    systemctl("stop", "flywheel-web.service")
    check(systemctl("is-active", "flywheel-web.service") == "inactive", "flywheel-web.service did not stop")
    say("    flywheel-web.service: the page (%d bytes), flywheeld %s's hello and a pong over the WebSocket" % (len(page), hello["version"]))


KEYBOARD = 'N: Name="Flywheel keys"'


def input_devices():
    with open("/proc/bus/input/devices") as f:
        return f.read()


def test_keys_unit():
    """The package's uinput group owns /dev/uinput (0660) and the module loads at boot; flywheel-keys
    enabled and started makes its virtual keyboard, as a dynamic user in that group, sandboxed."""
    check(os.path.exists("/var/lib/flywheel/uinput-group-created"), "the package did not note that it made the uinput group")
    with open("/usr/lib/modules-load.d/flywheel-keys.conf") as f:
        check("uinput" in f.read().split(), "flywheel-keys.conf does not load uinput")
    run(["udevadm", "settle"])
    info = os.stat("/dev/uinput")
    check(oct(info.st_mode & 0o777) == "0o660" and info.st_uid == 0 and info.st_gid == grp.getgrnam("uinput").gr_gid,
          "/dev/uinput is %o, uid %d, gid %d" % (info.st_mode & 0o777, info.st_uid, info.st_gid))
    check(KEYBOARD not in input_devices(), "a Flywheel keyboard before the unit started")
    run(["systemctl", "enable", "--now", "flywheel-keys.service"])
    wait_until(lambda: KEYBOARD in input_devices(), "flywheel-keys.service made its keyboard")
    check(systemctl("is-active", "flywheel-keys.service") == "active", "flywheel-keys.service is not active")
    check(property_of("flywheel-keys.service", "DynamicUser") == "yes", "flywheel-keys.service is not a dynamic user")
    fields = status_fields(int(property_of("flywheel-keys.service", "MainPID")))
    groups = {int(g) for g in fields["Groups"].split()}
    check(fields["Uid"].split()[0] != "0" and fields["NoNewPrivs"] == "1" and fields["Seccomp"] == "2",
          "status: Uid %s NoNewPrivs %s Seccomp %s" % (fields["Uid"], fields["NoNewPrivs"], fields["Seccomp"]))
    check(grp.getgrnam("uinput").gr_gid in groups and grp.getgrnam("audio").gr_gid in groups, "groups %s" % groups)
    # Left enabled, it would start flywheeld at the next boot, which test_after_reboot expects to be idle.
    run(["systemctl", "disable", "--now", "flywheel-keys.service"])
    wait_until(lambda: KEYBOARD not in input_devices(), "the keyboard went with the service")
    say("    flywheel-keys.service (uid %s, groups %s) made and removed its keyboard" % (fields["Uid"].split()[0], sorted(groups)))


SNDRV_CTL_IOCTL_ELEM_READ = 0xC4C85512   # _IOWR('U', 0x12, struct snd_ctl_elem_value), 1224 bytes on 64-bit Linux


def mixer_values(card, name, channels=2):
    """A mixer element's integer values, read from /dev/snd/controlC<card> (the image has no amixer)."""
    value = bytearray(1224)
    struct.pack_into("<IiII44sI", value, 0, 0, 2, 0, 0, name.encode(), 0)   # its id: iface MIXER, by name
    with open("/dev/snd/controlC%d" % card, "rb") as control:
        fcntl.ioctl(control, SNDRV_CTL_IOCTL_ELEM_READ, value)
    return list(struct.unpack_from("<%dq" % channels, value, 72))


def test_alsa_unit():
    """flywheel-alsa@CARD on snd-dummy's Master: a dynamic user in the audio group drives the mixer,
    which flywheeld takes the volume from and which follows the volume a client sets (50 % is raw 54,
    10 % raw -17 on its -45 to 0 dB scale)."""
    if run(["modprobe", "snd-dummy"], check_status=False).returncode != 0:
        say("    skipped: the kernel has no snd-dummy")
        return
    with open("/proc/asound/cards") as f:
        card = next(int(line.split()[0]) for line in f if "[Dummy" in line)
    run(["udevadm", "settle"])   # /dev/snd/controlC* in the audio group
    unit = "flywheel-alsa@%d.service" % card
    systemctl("start", unit)
    journal = lambda: run(["journalctl", "-b", "-u", unit, "-o", "cat"], check_status=False).stdout
    wait_until(lambda: "driving 'Master Volume'" in journal() and "connected to flywheeld" in journal(), unit + " drives the mixer")
    client = connect()
    client.next(lambda m: m["class"] == "hello")
    # The bridge first gives flywheeld the mixer's volume: snd-dummy's raw 0 (-30 dB) is 17 %, 16 on the
    # volume's default step of 2. A volume set before that would race it.
    wait_until(lambda: client.state()["volume"]["volume"] == 16, "flywheeld took the mixer's raw 0 as 16 %")
    for percent, raw in [(50, 54), (10, -17)]:
        client.send({"cmd": "set", "control": "volume", "volume": percent})
        wait_until(lambda: mixer_values(card, "Master Volume") == [raw, raw], "the mixer at raw %d for %d %%" % (raw, percent))
    check(property_of(unit, "DynamicUser") == "yes", unit + " is not a dynamic user")
    uid = status_fields(int(property_of(unit, "MainPID")))["Uid"].split()[0]
    check(uid != "0", unit + " runs as root")
    systemctl("stop", unit)
    check(systemctl("is-active", unit) == "inactive" and "stopping;" in journal(), "%s did not stop cleanly: %s" % (unit, journal()[-500:]))
    say("    %s (uid %s) gave flywheeld the mixer's 16 %% and set it to raw 54 and -17 for 50 %% and 10 %%" % (unit, uid))
    client.sock.close()


PIPEWIRE_USER = "player"


def test_pipewire_user_unit():
    """flywheel-pipewire, a user unit: enabled for no one after install; a user's own manager loads it
    and runs it as that user, and (PipeWire is not in the image) it says that it needs wpctl."""
    check(not os.path.lexists("/etc/systemd/user/default.target.wants/flywheel-pipewire.service"), "enabled for every user")
    run(["useradd", "--create-home", "--groups", "audio", PIPEWIRE_USER])
    uid = pwd.getpwnam(PIPEWIRE_USER).pw_uid
    # A login's user manager gets its XDG_RUNTIME_DIR from pam_systemd (libpam-systemd, which a desktop
    # has and the image has not: systemd --user exits without it); a runtime drop-in gives it here.
    os.makedirs("/run/systemd/system/user@%d.service.d" % uid, exist_ok=True)
    with open("/run/systemd/system/user@%d.service.d/runtime-dir.conf" % uid, "w") as f:
        f.write("[Service]\nEnvironment=XDG_RUNTIME_DIR=/run/user/%d\n" % uid)
    run(["systemctl", "daemon-reload"])
    run(["systemctl", "start", "user@%d.service" % uid])   # the user's manager, as a login starts it
    try:
        def user_systemctl(*arguments):
            return run(["runuser", "-u", PIPEWIRE_USER, "--", "env", "XDG_RUNTIME_DIR=/run/user/%d" % uid, "systemctl", "--user"]
                       + list(arguments), check_status=False).stdout.strip()
        shown = user_systemctl("show", "-p", "LoadState", "-p", "UnitFileState", "flywheel-pipewire.service")
        check(shown.split() == ["LoadState=loaded", "UnitFileState=disabled"], "the user's manager shows: %s" % shown)
        check(not os.path.lexists(os.path.expanduser("~%s/.config/systemd/user/default.target.wants/flywheel-pipewire.service" % PIPEWIRE_USER)),
              "enabled for the user")
        user_systemctl("start", "flywheel-pipewire.service")
        journal = lambda: run(["journalctl", "-b", "_SYSTEMD_USER_UNIT=flywheel-pipewire.service", "_UID=%d" % uid, "-o", "cat"],
                              check_status=False).stdout
        wait_until(lambda: "needs wpctl" in journal(), "flywheel-pipewire.service, run by the user's manager, says it needs wpctl")
        user_systemctl("stop", "flywheel-pipewire.service")
    finally:
        systemctl("stop", "user@%d.service" % uid)
    say("    flywheel-pipewire.service in %s's manager: %s" % (PIPEWIRE_USER, journal().strip().splitlines()[0]))


# Phase 2: after the reboot.

def test_uinput_at_boot():
    """systemd-modules-load loaded uinput at boot (flywheel-keys.conf); udev gave /dev/uinput to the uinput group."""
    with open("/proc/modules") as f:
        check(any(line.split()[0] == "uinput" for line in f), "uinput is not loaded after the boot")
    info = os.stat("/dev/uinput")
    check(oct(info.st_mode & 0o777) == "0o660" and info.st_gid == grp.getgrnam("uinput").gr_gid, "/dev/uinput is %o, gid %d" % (
        info.st_mode & 0o777, info.st_gid))
    check(systemctl("is-active", "flywheel-keys.service") == "inactive", "flywheel-keys.service, disabled, started at boot")


def test_after_reboot():
    """The reboot kept the configuration and the enabled socket; a client starts the daemon with that configuration."""
    with open("/etc/flywheel/flywheel.json5") as f:
        check(f.read() == LANE_CONFIG % (40, 200), "the configuration changed across the reboot")
    check(systemctl("is-active", "flywheeld.socket") == "active", "flywheeld.socket is not listening after the boot")
    check(systemctl("is-active", "flywheeld.service") == "inactive", "flywheeld.service started at boot with no device or client")
    client = connect()
    client.next(lambda m: m["class"] == "hello")
    state = client.state()
    check(state["tempo"]["range"] == [40, 200], "state after the reboot: %s" % state["tempo"])
    with open(os.path.join(STATE, "burst")) as f:
        burst = json.load(f)
    # The power cut came during a burst of sets a tempo apart, one every 50 ms: the tempo restored is
    # one of the last 2 s of them (not the 120 the configuration starts at), the volume and the mode
    # as set before the burst.
    sent = int(round((state["tempo"]["bpm"] - burst["first"]) * 10))
    check(burst["count"] - 1 - 40 <= sent <= burst["count"] - 1,
          "after the power cut the tempo is %s: set %d of %d, more than 2 s old" % (state["tempo"]["bpm"], sent + 1, burst["count"]))
    check(state["volume"]["volume"] == burst["volume"] and state["mode"]["active"] == burst["mode"], "after the power cut: %s %s" % (state["volume"], state["mode"]))
    say("    after the power cut: the tempo of set %d of %d, %.2f s before the cut" % (sent + 1, burst["count"], (burst["count"] - 1 - sent) * 0.05))
    pid = daemon_pid()
    say("    flywheeld started by a client after the reboot: VmRSS %s" % status_fields(pid)["VmRSS"].strip())
    client.sock.close()


def test_remove():
    """apt remove stops and removes the units, the rules and the binaries; the configuration and the groups stay."""
    apt(["remove", "flywheel"])
    check(systemctl("is-active", "flywheeld.socket") != "active" and not os.path.exists(SOCKET), "the socket is still there")
    check(systemctl("is-active", "flywheeld.service") != "active", "flywheeld still runs")
    for path in ["/usr/bin/flywheeld", "/usr/lib/udev/rules.d/60-flywheel.rules", "/usr/lib/systemd/system/flywheeld.socket"]:
        check(not os.path.exists(path), path + " is still there")
    check(os.path.exists("/etc/flywheel/flywheel.json5"), "remove (not purge) deleted the configuration")
    check({"gpio", "uinput"} <= {g.gr_name for g in grp.getgrall()}, "remove deleted the gpio or uinput group")


def test_purge():
    """apt purge removes the configuration, the units' state and the gpio and uinput groups the package made."""
    apt(["purge", "flywheel"])
    for path in ["/etc/flywheel", "/var/lib/flywheel", "/var/lib/private/flywheel", "/etc/systemd/system/sockets.target.wants/flywheeld.socket",
                 "/etc/systemd/system/flywheeld.socket", "/etc/systemd/system/flywheeld.service"]:   # enabled, or masked by the removal
        check(not os.path.lexists(path), path + " is still there")
    check(not any(g.gr_name in ("gpio", "uinput") for g in grp.getgrall()), "purge kept the gpio or uinput group it made")
    check(run(["dpkg-query", "-W", "-f=${Status}", "flywheel"], check_status=False).stdout.strip() in ("", "unknown ok not-installed"),
          "dpkg still knows the package")


def power_cut():
    """The first boot ends with its power cut: a burst of tempo sets, and during it an immediate reset
    (sysrq b: no sync, no unmount, no shutdown; the guest's page cache is lost, as at the wall). The
    lane's disk takes what the guest wrote to it whether QEMU is reset or killed (cache=unsafe keeps
    it in the host's page cache), so the reset is the cut QEMU's death would be. The next boot finds
    what flywheeld's state file made durable."""
    client = connect()
    client.next(lambda m: m["class"] == "hello")
    client.send({"cmd": "set", "control": "volume", "volume": 42})
    client.next(lambda m: m["class"] == "state")
    client.send({"cmd": "set", "control": "mode", "mode": "scrub"})
    client.next(lambda m: m["class"] == "state")
    burst = {"first": 60.0, "count": 60, "volume": 42, "mode": "scrub"}
    with open(os.path.join(STATE, "burst"), "w") as f:
        json.dump(burst, f)
        f.flush()
        os.fsync(f.fileno())
    os.sync()
    say("the power cut, 3 s into a burst of tempo sets")
    for index in range(burst["count"]):
        client.send({"cmd": "set", "control": "tempo", "bpm": burst["first"] + index / 10})
        client.next(lambda m: m["class"] == "state")
        time.sleep(0.05)   # a hand's pace: one set every 50 ms
    with open("/proc/sysrq-trigger", "w") as f:
        f.write("b")


PHASES = {
    "1": [test_install, test_udev_starts_daemon, test_socket_activation, test_events, test_replug, test_reload, test_hardening, test_rest, test_osc_bridge, test_web_feed,
          test_keys_unit, test_alsa_unit, test_pipewire_user_unit],
    "2": [test_uinput_at_boot, test_after_reboot, test_remove, test_purge],
}


def boot_waits():
    """The three longest gaps between this boot's journal lines, with the line after each."""
    lines = run(["journalctl", "-b", "-o", "short-monotonic", "--no-pager"], check_status=False).stdout.splitlines()
    stamped = [(float(l[1:l.index("]")]), l[l.index("]") + 1:].strip()) for l in lines if l.startswith("[") and "]" in l]
    gaps = sorted(((b[0] - a[0], b[0], b[1][:90]) for a, b in zip(stamped, stamped[1:])), reverse=True)[:3]
    return "; ".join("%.1f s before %.1f s: %s" % gap for gap in gaps)


def main():
    os.makedirs(STATE, exist_ok=True)
    phase_file = os.path.join(STATE, "phase")
    phase = open(phase_file).read().strip() if os.path.exists(phase_file) else "1"
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    say("boot %s: the tests began %.1f s after the kernel started" % (phase, uptime))
    say("    the boot's longest waits: " + boot_waits())
    passed, failed = 0, 0
    if os.path.exists(os.path.join(STATE, "counts")):
        passed, failed = map(int, open(os.path.join(STATE, "counts")).read().split())
    for test in PHASES[phase]:
        started = time.monotonic()
        try:
            test()
            passed += 1
            say("PASS %s (%.1f s)" % (test.__name__, time.monotonic() - started))
        except Exception as error:   # a failure is reported and the run goes on
            failed += 1
            say("FAIL %s (%.1f s): %s: %s" % (test.__name__, time.monotonic() - started, type(error).__name__, error))
            say("    " + "    ".join(traceback.format_exc().splitlines(True)[-6:]))
            say(run(["sh", "-c", "ls -la /run/flywheel; systemctl status --no-pager -n 20 flywheeld.socket flywheeld.service"],
                    check_status=False).stdout)
    for client in CLIENT_OF_EVENTS:
        client.sock.close()
    if phase == "1" and failed == 0:
        with open(os.path.join(STATE, "counts"), "w") as f:
            f.write("%d %d" % (passed, failed))
        with open(phase_file, "w") as f:
            f.write("2")
        os.sync()
        power_cut()
        return
    say("%d passed, %d failed" % (passed, failed))
    with open(os.path.join(JOB, "status"), "w") as f:
        f.write("0" if failed == 0 else "1")
    os.sync()
    subprocess.run(["systemctl", "start", "--no-block", "poweroff.target"])


main()
