#!/usr/bin/env python3
"""The kernel lane's integration tests. Runs INSIDE the test guest (Tests/kernel/run-in-guest.sh), as
root, with uinput, evdev and gpio-sim available: flywheeld reads real kernel devices that
`flywheel sim --uinput` / `--gpio-sim` create, and a socket client checks what it serves.

Usage (inside the guest): kernel_lane.py [TEST ...]   (default: every test)
Binaries come from $FLYWHEEL_BIN (default .build/debug of this checkout)."""

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
BIN = os.environ.get("FLYWHEEL_BIN", os.path.join(ROOT, ".build", "debug"))
HARDWARE = os.path.join(ROOT, "hardware")
TIMEOUT = 60.0


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def scenario(name):
    return os.path.join(HARDWARE, "scenarios", name + ".sim")


def truth(name):
    return truth_of(scenario(name))


def truth_of(path):
    out = subprocess.run([os.path.join(BIN, "flywheel"), "sim", path, "--truth"], check=True, capture_output=True, text=True)
    return int(out.stdout)


class Client:
    """A socket client reading newline-delimited JSON."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.sock.settimeout(TIMEOUT)
        self.buffer = b""
        self.seen = []

    def next(self, predicate=lambda m: True, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                self.seen.append(message)
                if predicate(message):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure("timed out waiting for a message; last seen: %s" % self.seen[-5:])
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                data = None
            if data is None:
                raise Failure("timed out waiting for a message; last seen: %s" % [(m["class"], m.get("action") or m.get("phase")) for m in self.seen[-8:]])
            if not data:
                raise Failure("the daemon closed the connection")
            self.buffer += data

    def next_or_seen(self, predicate, timeout=TIMEOUT):
        """The first message already read that satisfies `predicate`, else the next one that does."""
        return next((m for m in self.seen if predicate(m)), None) or self.next(predicate, timeout)

    def send(self, command):
        self.sock.sendall((json.dumps(command) + "\n").encode())

    def state(self):
        self.send({"cmd": "get"})
        return self.next(lambda m: m["class"] == "state")


RUNNING = []  # daemons to kill after each test, whatever happened


class Daemon:
    """flywheeld as a child process, ready when it says READY=1 on NOTIFY_SOCKET."""

    def __init__(self, config, as_user=False):
        self.dir = tempfile.mkdtemp(prefix="flywheel-lane-")
        os.chmod(self.dir, 0o777)
        self.config = os.path.join(self.dir, "flywheel.json5")
        with open(self.config, "w") as f:
            f.write(config)
        self.socket = os.path.join(self.dir, "flywheel.sock")
        notify_path = os.path.join(self.dir, "notify")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify_path)
        os.chmod(notify_path, 0o777)
        self.notify.settimeout(TIMEOUT)
        self.as_user = as_user
        self.start()

    def start(self):
        """Starts flywheeld (again, after ``stop``: at the same socket, as a restart does)."""
        notify_path = os.path.join(self.dir, "notify")
        argv = [os.path.join(BIN, "flywheeld"), "--config", self.config, "--socket", self.socket, "--frames", "0", "--hardware", HARDWARE]
        if self.as_user:  # nobody: device nodes are root-only until someone changes them
            argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
        env = dict(os.environ, NOTIFY_SOCKET=notify_path)
        self.stderr = open(os.path.join(self.dir, "stderr"), "w+")
        self.process = subprocess.Popen(argv, env=env, stderr=self.stderr)
        RUNNING.append(self.process)
        message = self.notify.recv(4096).decode()
        while message.startswith("STOPPING=1"):  # the previous flywheeld's goodbye, on a restart
            message = self.notify.recv(4096).decode()
        check(message == "READY=1", "flywheeld did not become ready: %r" % message)

    def client(self):
        client = Client(self.socket)
        client.next(lambda m: m["class"] == "hello")
        return client

    def cpu_ticks(self):
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=TIMEOUT)
        self.stderr.seek(0)
        log = self.stderr.read()
        check(status == 0, "flywheeld exited %d: %s" % (status, log))
        return log


TEMPO_ONLY = """{
  feel: { min_fling_speed: 1000 },   // no coasting and (below) no acceleration: the tempo moves exactly by the detents counted
  controls: { tempo: { range: [1, 1000], bpm: 120, acceleration: "off" }, mode: { segments: ["tempo"] } },
  %s
}"""


def play(*args):
    """Runs flywheel sim into the kernel; returns its standard error."""
    run = subprocess.run([os.path.join(BIN, "flywheel"), "sim"] + list(args), capture_output=True, text=True, timeout=TIMEOUT)
    check(run.returncode == 0, "flywheel sim %s failed: %s" % (" ".join(args), run.stderr))
    return run.stderr


# A Contour jog wheel's REL_DIAL carries the counter's value, so the first report after the device is
# opened is the reference the next ones are measured from: the counter's previous value cannot be
# known, and a scenario that starts by turning the jog loses that one detent at every plug-in.
FIRST_COUNTER_REPORT = 1


def settled_tempo(client, expected):
    """Waits until the tempo rests at `expected` (or times out) and returns the state's bpm."""
    try:
        client.next_or_seen(lambda m: m["class"] == "tempo" and m["phase"] == "settled" and m["bpm"] == expected, timeout=20)
    except Failure:
        pass
    return client.state()["tempo"]["bpm"]


def test_powermate_uinput():
    """A simulated PowerMate on uinput: every REL_DIAL delta (up to ±7) counted, the push seen."""
    daemon = Daemon(TEMPO_ONLY % "")
    client = daemon.client()
    play(scenario("powermate-spin"), "--uinput", "--linger", "0.5")
    added = client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "added")
    check(added["kind"] == "jog-dial" and added["name"] == "Griffin PowerMate", "device added: %s" % added)
    expected = 120 + truth("powermate-spin")
    bpm = settled_tempo(client, expected)
    check(bpm == expected, "tempo %d, expected %d" % (bpm, expected))
    presses = [m for m in client.seen if m["class"] == "button" and m["action"] == "press"]
    check(len(presses) == 1 and presses[0]["code"] == 256, "button presses: %s" % presses)
    client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "removed")
    daemon.stop()


def test_shuttlexpress_uinput():
    """A simulated ShuttleXpress on uinput: the jog counter unwrapped across 255→0 both ways."""
    daemon = Daemon(TEMPO_ONLY % "")
    client = daemon.client()
    play(scenario("shuttle-wrap"), "--uinput", "--linger", "0.5")
    expected = 120 + truth("shuttle-wrap") - FIRST_COUNTER_REPORT
    bpm = settled_tempo(client, expected)
    check(bpm == expected, "tempo %d, expected %d" % (bpm, expected))
    kinds = [m["kind"] for m in client.seen if m["class"] == "device" and m["action"] == "added"]
    check(kinds == ["jog-shuttle"], "devices added: %s" % kinds)
    presses = [m["code"] for m in client.seen if m["class"] == "button" and m["action"] == "press"]
    check(presses == [0x105], "button presses: %s" % presses)
    daemon.stop()


def test_bouncy_encoder_gpio_sim():
    """A bouncy EC11 on gpio-sim: exact detents through the GPIO backend, no gap. (The button's
    software debounce is tested on recorded edges; under emulation gpio-sim can deliver a button's
    bounce late enough to look like two presses.)
    (gpio-lane.sim has the profile's bounce; bouncy-knob.sim's 20 µs chatter pulses are faster than
    gpio-sim delivers interrupts under emulation, which merges and delays them.)
    On a heavily loaded host even the profile's bounce (toggles 50 µs apart) can reach the emulated
    gpio-sim faster than it raises interrupts, and a merged pair of edges loses a detent before
    flywheeld sees anything: one such miss is played again, said in the output; two fail."""
    expected = 120 + truth("gpio-lane")
    for attempt in (1, 2):
        daemon = Daemon(TEMPO_ONLY % 'devices: [ { name: "lane knob", profile: "ec11", gpio: { chip: "flywheel-lane", a: 0, b: 1, button: 2 } } ],')
        client = daemon.client()
        play(scenario("gpio-lane"), "--gpio-sim", "flywheel-lane", "--linger", "0.5")
        bpm = settled_tempo(client, expected)
        if bpm == expected or attempt == 2:
            break
        print("     played again: tempo %d, expected %d (gpio-sim under emulation merged edges)" % (bpm, expected), flush=True)
        daemon.stop()
    check(bpm == expected, "tempo %d, expected %d" % (bpm, expected))
    added = [m for m in client.seen if m["class"] == "device" and m["action"] == "added"]
    check(len(added) == 1 and added[0]["name"] == "lane knob" and added[0]["kind"] == "encoder", "devices added: %s" % added)
    gaps = [m for m in client.seen if m["class"] == "gap"]
    check(gaps == [], "gaps: %s" % gaps)
    daemon.stop()


class SimChip:
    """A gpio-sim chip made through configfs, labelled `name`, its lines' levels set by their pulls."""

    def __init__(self, name, lines):
        self.item = "/sys/kernel/config/gpio-sim/" + name
        self.lines = lines
        os.makedirs(self.item + "/bank0")
        for offset in range(lines):
            os.mkdir("%s/bank0/line%d" % (self.item, offset))
        for attribute, value in [("bank0/num_lines", str(lines)), ("bank0/label", name), ("live", "1")]:
            with open(os.path.join(self.item, attribute), "w") as f:
                f.write(value)
        with open(self.item + "/dev_name") as f, open(self.item + "/bank0/chip_name") as g:
            device, chip = f.read().strip(), g.read().strip()
        self.pulls = ["/sys/devices/platform/%s/%s/sim_gpio%d/pull" % (device, chip, offset) for offset in range(lines)]

    def pull(self, offset, high):
        with open(self.pulls[offset], "w") as f:
            f.write("pull-up" if high else "pull-down")

    def remove(self):
        with open(self.item + "/live", "w") as f:
            f.write("0")
        for offset in range(self.lines):
            os.rmdir("%s/bank0/line%d" % (self.item, offset))
        os.rmdir(self.item + "/bank0")
        os.rmdir(self.item)


def test_gpio_overflow_gap():
    """Edges the kernel dropped while flywheeld was stopped (SIGSTOP) are one gap, and the daemon goes
    on serving: the GPIO backend sees the loss through either libgpiod API (1.6: a read that returns a
    line's whole 16-event buffer; 2.x: a gap in a line's sequence numbers, its buffer 1024 events)."""
    chip = SimChip("flywheel-overflow", 3)
    try:
        for offset in range(3):
            chip.pull(offset, True)
        daemon = Daemon(TEMPO_ONLY % 'devices: [ { name: "overflow knob", profile: "ec11", gpio: { chip: "flywheel-overflow", a: 0, b: 1, button: 2 } } ],')
        client = daemon.client()  # the chip was there first: the hello names the knob, its lines requested
        hello = client.seen[0]
        check([d["name"] for d in hello["devices"]] == ["overflow knob"], "hello: %s" % hello)
        daemon.process.send_signal(signal.SIGSTOP)
        for _ in range(2500):  # 5000 edges on A, far more than either buffer holds
            chip.pull(0, False)
            chip.pull(0, True)
        daemon.process.send_signal(signal.SIGCONT)
        gap = client.next(lambda m: m["class"] == "gap")
        check(gap["reason"] == "GPIO event buffer overflow", "gap: %s" % gap)
        client.state()  # the daemon still answers; every message sent before the state is read by now
        gaps = [m for m in client.seen if m["class"] == "gap"]
        check(len(gaps) == 1, "gaps: %s" % gaps)
        daemon.stop()
    finally:
        for process in RUNNING:  # a daemon left by a failure must let go of the chip first
            if process.poll() is None:
                process.kill()
                process.wait()
        chip.remove()


# The Raspberry Pi boards' GPIO chips as the kernel lists them (gpiodetect), the header's last: each
# layout's other chips are made first (gpio-sim numbers chips in the order they are made), and the
# header's chip is made by `flywheel sim --gpio-sim LABEL --pi-header` once the daemon is waiting.
PI_LAYOUTS = [
    # Pi 5 before kernel 6.6.47: the SoC's four GPIO banks are gpiochip0-3, RP1 (the header) gpiochip4.
    ("Pi 5, kernel before 6.6.47", ["gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00",
                                    "gpio-brcmstb@107d517c20"], "pinctrl-rp1", '{ a: "GPIO17", b: "GPIO27", button: "GPIO22" }'),
    # From 6.6.47 on RP1 is gpiochip0 and the SoC's banks come after it: no chip before the header.
    ("Pi 5, kernel 6.6.47 and later", [], "pinctrl-rp1", '{ chip: "header", a: 17, b: 27, button: 22 }'),
    # Pi 4: the BCM2711's pin controller, then the firmware's expander (raspberrypi-exp-gpio).
    ("Pi 4", [], "pinctrl-bcm2711", '{ a: 17, b: "GPIO27", button: 22 }'),
]


def test_pi_header_layouts():
    """A knob configured without a chip (or with chip: "header") is on the Raspberry Pi header's chip,
    found by its label (pinctrl-rp1, pinctrl-bcm2711) whatever number the kernel gave it: the Pi 5's
    header was gpiochip4 before kernel 6.6.47 and gpiochip0 after, which broke gpiozero's
    RotaryEncoder (gpiozero #1166). Lines by offset or by name (GPIO17). Each layout counts the
    scenario's detents exactly (pi-header.sim: clean contacts, a hand's pace; the bounce is
    test_bouncy_encoder_gpio_sim's). A miss from edges gpio-sim merged under emulation is played
    again, said in the output; two fail."""
    expected = 120 + truth("pi-header")
    for board, others, header, lines in PI_LAYOUTS:
        made = [SimChip(label, 8) for label in others]
        try:
            for attempt in (1, 2):
                daemon = Daemon(TEMPO_ONLY % ('devices: [ { name: "header knob", profile: "ec11", gpio: %s } ],' % lines))
                client = daemon.client()
                play(scenario("pi-header"), "--gpio-sim", header, "--pi-header", "--linger", "0.5")
                bpm = settled_tempo(client, expected)
                if bpm == expected or attempt == 2:
                    break
                print("     %s: played again: tempo %d, expected %d (gpio-sim under emulation merged edges)" % (board, bpm, expected), flush=True)
                daemon.stop()
            check(bpm == expected, "%s: tempo %d, expected %d" % (board, bpm, expected))
            added = [m for m in client.seen if m["class"] == "device" and m["action"] == "added"]
            check(len(added) == 1 and added[0]["name"] == "header knob", "%s: devices added: %s" % (board, added))
            log = daemon.stop()
            check("waiting for gpio:header:" in log, "%s: the daemon did not say it waited for the header: %s" % (board, log))
            print("     %s: the header (%s) after %d other chips: tempo %d" % (board, header, len(others), bpm), flush=True)
        finally:
            for process in RUNNING:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            for chip in made:
                chip.remove()


def test_pi_header_named_wrong():
    """A configured chip that does not exist while the header's does is an error naming the header's
    chip (a Pi 5 configuration written for gpiochip4 on a kernel that numbers it gpiochip0), and
    `flywheel devices` marks the header's chip, only it."""
    others = [SimChip("raspberrypi-exp-gpio", 8)]
    header = SimChip("pinctrl-rp1", 28)
    try:
        with open("/sys/kernel/config/gpio-sim/pinctrl-rp1/bank0/chip_name") as f:
            header_name = f.read().strip()
        devices = subprocess.run([os.path.join(BIN, "flywheel"), "devices", "--json"], capture_output=True, text=True, timeout=TIMEOUT)
        chips = [c for c in json.loads(devices.stdout) if c.get("kind") == "gpiochip"]
        marked = [c["name"] for c in chips if c.get("header")]
        check(marked == [header_name], "flywheel devices marks %s as the header, expected [%s]: %s" % (marked, header_name, chips))
        daemon = Daemon(TEMPO_ONLY % 'devices: [ { name: "old knob", profile: "ec11", gpio: { chip: "gpiochip99", a: 17, b: 27 } } ],')
        daemon.client()
        log = daemon.stop()
        hint = "The Raspberry Pi header's chip is %s (pinctrl-rp1) on this kernel" % header_name
        check("waiting for gpio:gpiochip99:17,27 to appear" in log and hint in log, "the daemon's message does not name the header's chip: %s" % log)
    finally:
        header.remove()
        for chip in others:
            chip.remove()


def test_hotplug_uinput():
    """Unplugged after its spin and plugged in again: removed, added, the tempo kept; no CPU spin."""
    daemon = Daemon(TEMPO_ONLY % "")
    client = daemon.client()
    # Removed half a second after its last event: an unplug while events are still unread loses
    # them (evdev answers ENODEV before the rest of its buffer), which is the kernel's behaviour.
    play(scenario("shuttle-wrap"), "--uinput", "--linger", "0.5")
    client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "removed")
    first = 120 + truth("shuttle-wrap") - FIRST_COUNTER_REPORT
    check(settled_tempo(client, first) == first, "tempo after the first plug")
    before = daemon.cpu_ticks()
    time.sleep(1.0)  # idle with no device: measuring that nothing runs, not waiting for anything
    idle = daemon.cpu_ticks() - before
    check(idle <= 2, "flywheeld used %d ticks of CPU in 1 s with no device" % idle)
    play(scenario("shuttle-wrap"), "--uinput", "--linger", "0.5")
    second = first + truth("shuttle-wrap") - FIRST_COUNTER_REPORT
    check(settled_tempo(client, second) == second, "tempo after the second plug: state kept")
    actions = [m["action"] for m in client.seen if m["class"] == "device"]
    check(actions == ["added", "removed", "added", "removed"], "device messages: %s" % actions)
    daemon.stop()


HOLDS = """{
  feel: { min_fling_speed: 1000 },
  controls: { tempo: { range: [1, 1000], bpm: 120, acceleration: "off" }, volume: { start: 30, step: 1, acceleration: "off" },
              mode: { segments: ["tempo"] }, buttons: { BTN_5: "hold-fine", BTN_6: "volume+" } },
}"""


def test_unplugged_holding():
    """A ShuttleXpress unplugged while its hold-fine and volume+ buttons are held: the volume's repeat
    stops with the device and fine control ends (a PowerMate turned next moves whole BPMs). The
    kernel sends key releases for held keys as it unplugs a device (input_disconnect_device), which
    flywheeld may or may not read before the node answers ENODEV: either way the holds end."""
    daemon = Daemon(HOLDS)
    client = daemon.client()
    held = os.path.join(daemon.dir, "held.sim")
    with open(held, "w") as f:
        f.write("device shuttlexpress\nbounce off\nhold 200ms\npress BTN_5\npress BTN_6\n")
    play(held, "--uinput", "--linger", "1.5")   # both buttons down for 1.5 s, then the device goes
    removed = client.next_or_seen(lambda m: m["class"] == "device" and m["action"] == "removed")
    volumes = [m for m in client.seen if m["class"] == "volume"]
    check(len(volumes) >= 10, "volume+ held 1.5 s repeated %d times: %s" % (len(volumes), [(m["class"], m.get("action") or m.get("phase"), m.get("code"), m["time"]) for m in client.seen][:40]))
    before = client.state()["volume"]["volume"]
    time.sleep(1.0)  # measuring that nothing repeats once the device is gone, not waiting for anything
    after = client.state()["volume"]["volume"]
    # (The last step's `settled` may come after the removal: a step, never.)
    late = [m for m in client.seen if m["class"] == "volume" and m["phase"] != "settled" and m["time"] > removed["time"]]
    check(after == before and not late, "the volume went on after the unplug: %d -> %d, %s" % (before, after, late[:3]))
    play(scenario("powermate-spin"), "--uinput", "--linger", "0.5")
    expected = 120 + truth("powermate-spin")
    bpm = settled_tempo(client, expected)
    check(bpm == expected, "tempo %s after the unplugged hold-fine, expected %d (fine would give %.1f)" % (bpm, expected, 120 + truth("powermate-spin") / 10))
    daemon.stop()


def test_unreadable_then_readable():
    """A node that is unreadable for its first second (udev not done) is taken once readable."""
    daemon = Daemon(TEMPO_ONLY % "", as_user=True)
    client = daemon.client()
    sim = subprocess.Popen([os.path.join(BIN, "flywheel"), "sim", scenario("shuttle-wrap"), "--uinput", "--linger", "0.5"],
                           stderr=subprocess.PIPE, text=True)
    line = sim.stderr.readline()  # "flywheel: … plays on /dev/input/eventN"
    node = line.strip().rsplit(" ", 1)[-1]
    check(node.startswith("/dev/input/event"), "sim said: %r" % line)
    time.sleep(1.0)  # the permission window being simulated, not a wait for an event
    check(not any(m["class"] == "device" for m in client.seen), "taken while unreadable")
    os.chmod(node, 0o666)
    client.next(lambda m: m["class"] == "device" and m["action"] == "added")
    check(sim.wait(timeout=TIMEOUT) == 0, "flywheel sim failed: %s" % sim.stderr.read())
    expected = 120 + truth("shuttle-wrap") - FIRST_COUNTER_REPORT
    bpm = settled_tempo(client, expected)
    check(bpm == expected, "tempo %d after the late permission, expected %d; messages %s; daemon: %s" % (
        bpm, expected, [(m["class"], m.get("action") or m.get("phase"), m.get("bpm"), m["time"]) for m in client.seen[:12]], daemon.stop()))
    daemon.stop()


TWO_KNOBS = """{
  feel: { min_fling_speed: 10 },   // a jog at 4 detents/s never coasts; a spin at 120/s does
  controls: { tempo: { range: [1, 1000], bpm: 500 }, mode: { segments: ["tempo"] } },
}"""

# A PowerMate spun once (it coasts for about a second and a half), and a ShuttleXpress's jog turned
# slowly meanwhile, a detent every 250 ms: each jog detent is a gesture of its own, most of them
# while the PowerMate coasts.
TWO_KNOBS_SPIN = "device powermate\nseed 4\nturn +20 at 120/s\nhold 3s\n"
TWO_KNOBS_JOG = "device shuttlexpress\nseed 4\ncounter 100\nhold 300ms\nturn +6 at 4/s\nhold 1s\n"


def test_two_knobs_uinput():
    """Two knobs at once on one control: a PowerMate and a ShuttleXpress played on uinput at the same
    time, each with its own engine in flywheeld. The tempo's gesture stays one while either moves:
    its began and settled alternate, never a second began before the last settled (one engine for
    both took each jog detent during the spin's coast as a new gesture, and every jog detent added
    to the coast's momentum)."""
    daemon = Daemon(TWO_KNOBS)
    client = daemon.client()
    paths = []
    for name, text in (("spin", TWO_KNOBS_SPIN), ("jog", TWO_KNOBS_JOG)):
        paths.append(os.path.join(daemon.dir, name + ".sim"))
        with open(paths[-1], "w") as f:
            f.write(text)
    sims = [subprocess.Popen([os.path.join(BIN, "flywheel"), "sim", path, "--hardware", HARDWARE, "--uinput", "--linger", "0.5"],
                             stderr=subprocess.PIPE, text=True) for path in paths]
    for sim in sims:
        check(sim.wait(timeout=TIMEOUT) == 0, "flywheel sim failed: %s" % sim.stderr.read())
    removed = lambda m: m["class"] == "device" and m["action"] == "removed"
    while sum(1 for m in client.seen if removed(m)) < 2:
        client.next(removed)
    # No input after both are gone: the gesture under way ends with one last settled.
    tempo = [m for m in client.seen if m["class"] == "tempo"]
    if not tempo or tempo[-1]["phase"] != "settled":
        client.next(lambda m: m["class"] == "tempo" and m["phase"] == "settled")
    kinds = sorted(m["kind"] for m in client.seen if m["class"] == "device" and m["action"] == "added")
    check(kinds == ["jog-dial", "jog-shuttle"], "devices added: %s" % kinds)
    phases = [(m["phase"], m["time"]) for m in client.seen if m["class"] == "tempo" and m["phase"] in ("began", "settled")]
    alternating = len(phases) % 2 == 0 and all(p == ("began" if i % 2 == 0 else "settled") for i, (p, _) in enumerate(phases))
    check(phases and alternating, "tempo began/settled: %s" % phases)
    moved = [m["bpm"] for m in client.seen if m["class"] == "tempo" and m["phase"] == "moved"]
    check(client.state()["tempo"]["bpm"] == moved[-1], "the state's tempo is the last one moved")
    daemon.stop()



class Bridge:
    """A `flywheel` bridge command as a child process, its standard error in a file."""

    def __init__(self, directory, *args):
        self.stderr = open(os.path.join(directory, "bridge.err"), "w+")
        self.process = subprocess.Popen([os.path.join(BIN, "flywheel")] + list(args), stderr=self.stderr)
        RUNNING.append(self.process)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=TIMEOUT)
        self.stderr.seek(0)
        check(status == 0, "the bridge exited %d: %s" % (status, self.stderr.read()))


class SequencerDump:
    """aseqdump (alsa-utils) on a sequencer port: each line it prints, with the CLOCK_MONOTONIC time
    it was read."""

    def __init__(self, port):
        self.process = subprocess.Popen(["stdbuf", "-oL", "aseqdump", "-p", port], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        RUNNING.append(self.process)
        self.lines = []
        self.changed = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        self.wait_for(lambda line: line.startswith("Waiting for data"), "aseqdump to start")

    def read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append((time.monotonic(), line.strip()))
                self.changed.notify_all()

    def events(self, name):
        """(time, data) of each event called `name` ("Clock", "Control change", ...)."""
        found = []
        for moment, line in list(self.lines):
            parts = line.split(None, 1)
            if len(parts) == 2 and parts[1].startswith(name):
                found.append((moment, parts[1][len(name):].strip()))
        return found

    def wait_for(self, predicate, what, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not any(predicate(line) for _, line in self.lines):
                left = deadline - time.monotonic()
                check(left > 0 and self.process.poll() is None, "timed out waiting for %s; aseqdump printed %s" % (what, [l for _, l in self.lines[-8:]]))
                self.changed.wait(left)


def gentle_scenario(directory, script):
    """A PowerMate scenario written to `directory`. Its turns are slow enough that every step's message
    reaches a sequencer client under emulation (a hard spin's 2000 steps a second overflow aseqdump's
    input and the kernel drops events)."""
    path = os.path.join(directory, "gentle.sim")
    with open(path, "w") as f:
        f.write("device powermate\nseed 7\n" + script)
    return path


def virmidi():
    """Loads snd-virmidi: its first raw MIDI device and the sequencer port that carries what is written to it."""
    subprocess.run(["modprobe", "snd-virmidi"], check=True)
    devices = sorted(name for name in os.listdir("/dev/snd") if name.startswith("midiC") and name.endswith("D0"))
    check(devices, "snd-virmidi made no raw MIDI device: %s" % os.listdir("/dev/snd"))
    card = devices[0][len("midiC"):-len("D0")]
    listing = subprocess.run(["aseqdump", "-l"], capture_output=True, text=True, check=True).stdout
    ports = [line.split()[0] for line in listing.splitlines() if line.strip().endswith("VirMIDI %s-0" % card)]
    check(len(ports) == 1, "the sequencer port of VirMIDI %s-0 in: %s" % (card, listing))
    return "/dev/snd/" + devices[0], ports[0]


def relative(value):
    """A relative CC value as a step: n up as n, n down as 64 + n."""
    return value if value < 64 else -(value - 64)


def clock_rate(dump, seconds):
    """Clock ticks a second over `seconds` from now, from the first to the last tick seen then."""
    start = time.monotonic() + 0.2  # the ticks of the previous tempo still in flight
    time.sleep(seconds + 0.2)  # the span being measured, not a wait for an event
    ticks = [t for t, _ in dump.events("Clock") if start <= t <= start + seconds]
    check(len(ticks) > 10, "%d clock ticks in %.1f s" % (len(ticks), seconds))
    # The least-squares slope of arrival time against tick number: a late first or last tick (the
    # guest is emulated) moves it far less than it moves (last - first) / count.
    mean_k, mean_t = (len(ticks) - 1) / 2, sum(ticks) / len(ticks)
    slope = sum((k - mean_k) * (t - mean_t) for k, t in enumerate(ticks)) / sum((k - mean_k) ** 2 for k in range(len(ticks)))
    return 1 / slope


TEMPO_THEN_SCRUB = """{
  feel: { min_fling_speed: 1000 },
  controls: { tempo: { range: [1, 1000], bpm: 120, acceleration: "off" }, mode: { segments: ["tempo", "scrub"] }, buttons: { BTN_0: "mode" } },
}"""


def test_midi_virmidi():
    """flywheel midi --clock on a snd-virmidi port, read back by aseqdump from its sequencer port: Start,
    the clock at 24 a quarter note at two tempos, the knob's steps as relative CC adding up to the tempo's
    change, the button as its mapped note, a scrub commit as Song Position Pointer, Stop on SIGTERM."""
    if subprocess.run(["sh", "-c", "command -v aseqdump"], capture_output=True).returncode != 0:
        print("skip test_midi_virmidi: aseqdump is not installed (alsa-utils; Tests/kernel/prepare.sh installs it)", flush=True)
        return
    device, port = virmidi()
    dump = SequencerDump(port)
    daemon = Daemon(TEMPO_THEN_SCRUB)
    client = daemon.client()
    client.send({"cmd": "set", "control": "scrub", "duration": 600, "position": 300})
    client.next(lambda m: m["class"] == "state")
    bridge = Bridge(daemon.dir, "midi", "--socket", daemon.socket, "--device", device, "--channel", "3", "--clock",
                    "--knob-cc", "tempo=20", "--knob-cc", "scrub=21", "--button", "BTN_0=note:48")
    dump.wait_for(lambda line: line.endswith("Start"), "Start")
    # The turn moves the tempo; the push switches the mode to scrub; the turn back scrubs.
    play(gentle_scenario(daemon.dir, "turn +30 at 60/s\nhold 300ms\npress\nhold 150ms\nrelease\nturn -20 at 60/s\n"), "--uinput", "--linger", "0.5")
    committed = client.next_or_seen(lambda m: m["class"] == "scrub" and m["phase"] == "committed")
    bpm = client.state()["tempo"]["bpm"]
    dump.wait_for(lambda line: "Song position pointer" in line, "the Song Position Pointer")
    steps = {20: 0, 21: [], "other": []}
    for _, data in dump.events("Control change"):
        channel, controller, value = [int(field.split()[-1]) for field in data.split(",")]
        check(channel == 2, "a controller on channel %d (aseqdump counts from 0): %s" % (channel, data))
        if controller == 20:
            steps[20] += relative(value)
        elif controller == 21:
            steps[21].append(relative(value))
        else:
            steps["other"].append(data)
    moved = [m["value"] for m in client.seen if m["class"] == "tempo" and m["phase"] in ("began", "moved")]
    tempo_ccs = [data for _, data in dump.events("Control change") if ", controller 20," in data]
    check(steps[20] == bpm - 120, "the tempo's relative CC add up to %d, the tempo moved by %d (%d CC for %d tempo events; CC %s; tempo values %s)" % (
        steps[20], bpm - 120, len(tempo_ccs), len(moved), [d.rsplit(" ", 1)[-1] for d in tempo_ccs], moved))
    check(steps[21] and all(step == -1 for step in steps[21]), "the scrub's relative CC: %s" % steps[21])
    check(steps["other"] == [], "other controllers: %s" % steps["other"])
    notes = [data for _, data in dump.events("Note on")] + [data for _, data in dump.events("Note off")]
    check([n.split(",")[1].strip() for n in notes] == ["note 48", "note 48"], "the button's notes: %s" % notes)
    pointers = [int(data.split()[-1]) for _, data in dump.events("Song position pointer")]
    sixteenths = int(committed["position"] * bpm / 60 * 4)
    check(pointers == [sixteenths], "Song Position Pointer %s for a commit at %.3f s at %d BPM (%d sixteenths)" % (pointers, committed["position"], bpm, sixteenths))
    rates = []
    for tempo in [120, 240]:
        client.send({"cmd": "set", "control": "tempo", "bpm": tempo})
        client.next(lambda m: m["class"] == "state")
        rate = clock_rate(dump, 2.0)
        rates.append(rate)
        # 24 ticks a quarter note: 24 · BPM / 60 a second (25 a quarter note would be 4 % more).
        check(abs(rate / (tempo * 24 / 60) - 1) < 0.03, "%.2f clock ticks a second at %d BPM, expected %.1f" % (rate, tempo, tempo * 24 / 60))
    print("     clock: %.3f ticks/s at 120 BPM (48 ideal), %.3f at 240 BPM (96 ideal)" % tuple(rates), flush=True)
    bridge.stop()
    dump.wait_for(lambda line: line.endswith("Stop"), "Stop")
    names = [line.split(None, 1)[1] for _, line in dump.lines if line[:1] == " " or line[:1].isdigit()]
    check(names[0] == "Start" and names[-1] == "Stop", "first and last events: %s, %s" % (names[0], names[-1]))
    daemon.stop()


def test_powermate_led_beat():
    """The PowerMate's LED (led: "beat") flashes on the beat: the simulated PowerMate answers the daemon's
    MSC_PULSELED writes through uinput, lit (255) once a beat and dark (0) again 80 ms later."""
    link = "/dev/input/lane-powermate"
    daemon = Daemon(TEMPO_ONLY % ('devices: [ { name: "lane jog", profile: "powermate", path: "%s", led: "beat" } ],' % link))
    client = daemon.client()
    push = gentle_scenario(daemon.dir, "hold 100ms\npress\nhold 100ms\nrelease\n")
    sim = subprocess.Popen([os.path.join(BIN, "flywheel"), "sim", push, "--uinput", "--report-led", "--linger", "3"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    RUNNING.append(sim)
    line = sim.stderr.readline()  # "flywheel: … plays on /dev/input/eventN"
    node = line.strip().rsplit(" ", 1)[-1]
    check(node.startswith("/dev/input/event"), "sim said: %r" % line)
    os.symlink(node, link)  # what a udev rule would make; flywheeld takes the device when it appears
    try:
        client.next(lambda m: m["class"] == "device" and m["action"] == "added")
        client.send({"cmd": "set", "control": "tempo", "bpm": 150})
        client.next(lambda m: m["class"] == "state")
        since = time.monotonic() + 0.05
        out, err = sim.communicate(timeout=TIMEOUT)
    finally:
        os.unlink(link)
    check(sim.returncode == 0, "flywheel sim failed: %s" % err)
    writes = [(float(t), int(v)) for _, v, t in (l.split() for l in out.splitlines())]
    check(len(writes) > 4, "LED writes: %s" % writes)
    lit = [t for t, v in writes if v == 255 and t >= since]
    intervals = sorted(b - a for a, b in zip(lit, lit[1:]))
    check(len(intervals) >= 3, "LED flashes at 150 BPM since %.3f: %s; every write: %s" % (since, lit, writes))
    median = intervals[len(intervals) // 2]
    check(abs(median - 0.4) < 0.02, "LED flashes %.3f s apart at 150 BPM (a beat is 0.4 s): %s" % (median, intervals))
    for t in lit[:-1]:
        off = [u for u, v in writes if v == 0 and u > t]
        check(off and 0.04 < off[0] - t < 0.25, "the LED lit at %.3f went dark %s" % (t, off[:1]))
    print("     LED: %d flashes at 150 BPM, median %.1f ms apart" % (len(lit), median * 1e3), flush=True)
    daemon.stop()


VOLUME_KNOB = """{
  controls: { volume: { cap: 100, start: 30, step: 1 }, mode: { segments: ["volume"] }, buttons: { BTN_0: "none" } },
}"""


NAVIGATE_KNOB = """{
  controls: { mode: { segments: ["navigate"] }, buttons: { BTN_0: "none" } },
}"""


def wait_until(condition, what, timeout=20):
    """Polls `condition` until it returns something true (returned) or `timeout` passes (a failure naming `what`)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        check(time.monotonic() < deadline, "timed out waiting for %s" % what)
        time.sleep(0.02)


def peak_rss_kib(pid):
    """The peak resident memory of `pid` so far (VmHWM), in KiB."""
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def check_frugal(bridge, what):
    """The bridges' bound (issue 33's, as the host's faulty-peer tests check it): under 20 MB RSS."""
    peak = peak_rss_kib(bridge.process.pid)
    check(peak < 20 * 1024, "%s: peak RSS %d KiB, the bound is 20 MB" % (what, peak))
    print("     %s: peak RSS %d KiB" % (what, peak), flush=True)


def bridge_log(bridge):
    with open(bridge.stderr.name) as f:
        return f.read()


def amixer(card, *args):
    run = subprocess.run(["amixer", "-c", card] + list(args), capture_output=True, text=True, timeout=TIMEOUT)
    check(run.returncode == 0, "amixer %s: %s" % (" ".join(args), run.stderr))
    return run.stdout


def mixer_values(card, name):
    """An element's values as amixer cget prints them (": values=54,54")."""
    for line in amixer(card, "cget", "name=" + name).splitlines():
        if line.strip().startswith(": values="):
            return line.strip()[len(": values="):].split(",")
    raise Failure("amixer printed no values for %s" % name)


def dummy_card(test):
    """snd-dummy loaded: its card's index; None (`test` skipped, said) without amixer."""
    if subprocess.run(["sh", "-c", "command -v amixer"], capture_output=True).returncode != 0:
        print("skip %s: amixer is not installed (alsa-utils; Tests/kernel/prepare.sh installs it)" % test, flush=True)
        return None
    subprocess.run(["modprobe", "snd-dummy"], check=True)
    with open("/proc/asound/cards") as f:
        return next(int(line.split()[0]) for line in f if "[Dummy" in line)


def add_user_switch(card_index, name):
    """Adds a BOOLEAN element of two channels to the card (SNDRV_CTL_IOCTL_ELEM_ADD: a user control, as
    alsa-lib's softvol makes; it stays until the card goes). snd-dummy's Master has no playback switch."""
    import fcntl
    import struct
    info = bytearray(272)  # struct snd_ctl_elem_info on 64-bit Linux
    struct.pack_into("<IiII44sI", info, 0, 0, 2, 0, 0, name.encode(), 0)  # id: iface MIXER
    struct.pack_into("<iIIi", info, 64, 1, 3, 2, 0)  # type BOOLEAN, access READWRITE, count 2
    struct.pack_into("<qqq", info, 80, 0, 1, 0)
    with open("/dev/snd/controlC%d" % card_index, "rb+", buffering=0) as control:
        fcntl.ioctl(control, 0xC1105517, info)  # SNDRV_CTL_IOCTL_ELEM_ADD


def test_alsa_dummy():
    """flywheel alsa on snd-dummy's Master (raw -50…100, -45 dB to 0 dB in 0.3 dB steps): flywheeld takes the
    mixer's volume when the bridge starts (raw 0, -30 dB: 17 % on alsamixer's cubic scale); a volume of 50 %
    is raw 54 (-13.8 dB) and 75 % raw 80; amixer's change comes back to flywheeld; a button's taps turn the
    switch on and off; after flywheeld restarts it takes the mixer's volume again; the card unbound is said
    and retried without spinning, and bound again it is driven again; SIGTERM ends the bridge at once."""
    index = dummy_card("test_alsa_dummy")
    if index is None:
        return
    card = str(index)
    add_user_switch(index, "Master Playback Switch")
    amixer(card, "cset", "name=Master Volume", "0")
    daemon = Daemon(VOLUME_KNOB)
    client = daemon.client()
    bridge = Bridge(daemon.dir, "alsa", "--socket", daemon.socket, "--card", "Dummy", "--control", "Master", "--mute-button", "BTN_0")
    wait_until(lambda: "driving 'Master Volume'" in bridge_log(bridge), "the bridge to open the mixer")
    check("-45.00 dB to 0.00 dB" in bridge_log(bridge) and "muting with 'Master Playback Switch'" in bridge_log(bridge), bridge_log(bridge))
    wait_until(lambda: client.state()["volume"]["volume"] == 17, "flywheeld to take the mixer's 17 %%")
    for percent, raw in [(50, "54"), (75, "80"), (10, "-17")]:
        client.send({"cmd": "set", "control": "volume", "volume": percent})
        wait_until(lambda: mixer_values(card, "Master Volume") == [raw, raw], "raw %s for %d %%, amixer says %s" % (raw, percent, mixer_values(card, "Master Volume")))
    amixer(card, "cset", "name=Master Volume", "80")
    wait_until(lambda: client.state()["volume"]["volume"] == 75, "flywheeld to take amixer's raw 80 as 75 %%")
    check(mixer_values(card, "Master Volume") == ["80", "80"], "the mixer moved after the read-back: %s" % mixer_values(card, "Master Volume"))
    check(mixer_values(card, "Master Playback Switch") == ["off", "off"], "the new switch: %s" % mixer_values(card, "Master Playback Switch"))
    play(gentle_scenario(daemon.dir, "hold 100ms\npress\nhold 80ms\nrelease\n"), "--uinput", "--linger", "0.3")
    wait_until(lambda: mixer_values(card, "Master Playback Switch") == ["on", "on"], "the first tap to turn the switch on")
    play(gentle_scenario(daemon.dir, "hold 100ms\npress\nhold 80ms\nrelease\n"), "--uinput", "--linger", "0.3")
    wait_until(lambda: mixer_values(card, "Master Playback Switch") == ["off", "off"], "the second tap to turn the switch off")
    # flywheeld restarts (at its start volume, 30) while the mixer moves to raw 54: it takes 50 % again.
    daemon.stop()
    amixer(card, "cset", "name=Master Volume", "54")
    daemon.start()
    client = daemon.client()
    wait_until(lambda: "reconnected" in bridge_log(bridge) or bridge_log(bridge).count("connected to flywheeld") >= 2, "the bridge to reconnect")
    wait_until(lambda: client.state()["volume"]["volume"] == 50, "the restarted flywheeld to take the mixer's 50 %%")
    # The card goes (unbound from its driver, as an unplug): said, retried without spinning.
    ticks = lambda: sum(int(x) for x in open("/proc/%d/stat" % bridge.process.pid).read().rsplit(")", 1)[1].split()[11:13])
    with open("/sys/bus/platform/drivers/snd_dummy/unbind", "w") as f:
        f.write("snd_dummy.0")
    wait_until(lambda: "went away" in bridge_log(bridge) or "was removed" in bridge_log(bridge), "the bridge to say the card went away")
    before = ticks()
    time.sleep(2)  # measuring: the bridge's CPU time over two seconds without its card
    spent = (ticks() - before) / os.sysconf("SC_CLK_TCK")
    check(spent < 0.2, "the bridge spent %.2f s of CPU in 2 s without its card" % spent)
    check(bridge.process.poll() is None, "the bridge exited without its card: %s" % bridge_log(bridge))
    with open("/sys/bus/platform/drivers/snd_dummy/bind", "w") as f:
        f.write("snd_dummy.0")
    wait_until(lambda: bridge_log(bridge).count("driving 'Master Volume'") >= 2, "the bridge to drive the card again", timeout=30)
    client.send({"cmd": "set", "control": "volume", "volume": 75})
    wait_until(lambda: mixer_values(card, "Master Volume") == ["80", "80"], "the card back to take 75 %% as raw 80")
    check_frugal(bridge, "flywheel alsa after its card went and came back")
    print("     alsa: %.3f s of CPU in 2 s without the card; log:\n%s" % (spent, "".join("       " + l + "\n" for l in bridge_log(bridge).splitlines())), flush=True)
    start = time.monotonic()
    bridge.stop()
    check(time.monotonic() - start < 2, "SIGTERM took %.2f s" % (time.monotonic() - start))
    daemon.stop()


def cpu_seconds(pid):
    """utime + stime of `pid` so far, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mixer_elements(card):
    """The card's elements as amixer lists them: (numid, name, type) in numid order."""
    elements = []
    for line in amixer(card, "contents").splitlines():
        if line.startswith("numid="):
            fields = dict(part.split("=", 1) for part in line.split(",", 2))
            elements.append([int(fields["numid"]), fields["name"].strip("'"), None])
        elif line.strip().startswith("; type=") and elements and elements[-1][2] is None:
            elements[-1][2] = line.strip()[len("; type="):].split(",")[0]
    return sorted(tuple(element) for element in elements)


def pending_events(control):
    """The element events waiting on a subscribed control descriptor: (numid, mask) of each, in order.
    struct snd_ctl_event is 72 bytes: its type (0, SNDRV_CTL_EVENT_ELEM), the mask, the element's id (numid first)."""
    events = []
    while True:
        try:
            data = os.read(control, 72 * 1024)
        except BlockingIOError:
            return events
        events += [struct.unpack_from("<iII", data, offset)[1:][::-1] for offset in range(0, len(data), 72) if struct.unpack_from("<i", data, offset)[0] == 0]


def test_alsa_event_burst():
    """flywheel alsa reads at most 32 of the mixer's events a turn (ALSAControl.readEvents), driven past: with the
    bridge stopped (SIGSTOP), every other element of snd-dummy and 30 user switches change, then Master Volume 1000
    times (the kernel keeps one pending event an element, so 41 wait: a subscriber of the test's own reads them, Master's
    last); resumed, the bridge reads them over two turns and flywheeld takes Master's last value, the mixer keeping it.
    Then 1000 sets of Master in one amixer batch while the bridge runs: flywheeld ends at the last, the mixer keeps it
    (no read-back's echo written back), and the bridge's CPU stays low and its RSS under 20 MB."""
    import fcntl
    index = dummy_card("test_alsa_event_burst")
    if index is None:
        return
    card = str(index)
    for number in range(30):
        add_user_switch(index, "Burst %02d Switch" % number)
    elements = mixer_elements(card)
    master = next(numid for numid, name, _ in elements if name == "Master Volume")
    others = [(numid, kind) for numid, name, kind in elements if numid != master]
    check(len(others) >= 40, "snd-dummy's elements and the user switches: %s" % elements)
    amixer(card, "cset", "numid=%d" % master, "0")
    daemon = Daemon(VOLUME_KNOB)
    client = daemon.client()
    bridge = Bridge(daemon.dir, "alsa", "--socket", daemon.socket, "--card", "Dummy", "--control", "Master")
    wait_until(lambda: client.state()["volume"]["volume"] == 17, "flywheeld to take the mixer's 17 %%")

    # Stopped, the bridge reads nothing while every other element changes once or twice (one event each), then
    # Master 1000 times, ending at raw 12 (23 %; 23 % is raw 13, so a read-back written back would move it).
    control = os.open("/dev/snd/controlC%d" % index, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(control, 0xC0045516, struct.pack("i", 1))  # SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS
    os.kill(bridge.process.pid, signal.SIGSTOP)
    pairs = {"INTEGER": ("10", "20"), "BOOLEAN": ("on", "off"), "ENUMERATED": ("0", "1")}
    batch = ["cset numid=%d %s\ncset numid=%d %s" % (numid, pairs[kind][0], numid, pairs[kind][1]) for numid, kind in others]
    batch += ["cset numid=%d %d" % (master, -50 + step * 37 % 151) for step in range(999)] + ["cset numid=%d 12" % master]
    run = subprocess.run(["amixer", "-q", "-c", card, "-s"], input="\n".join(batch) + "\n", capture_output=True, text=True, timeout=TIMEOUT)
    check(run.returncode == 0 and run.stderr == "", "amixer -s: %s" % run.stderr)
    waiting = pending_events(control)
    os.close(control)
    check(len(waiting) == len(others) + 1 and len(waiting) > 32 and waiting[-1][0] == master and len({numid for numid, _ in waiting}) == len(waiting),
          "%d events pending for the stopped bridge, Master (numid %d) last: %s" % (len(waiting), master, waiting))
    os.kill(bridge.process.pid, signal.SIGCONT)
    wait_until(lambda: client.state()["volume"]["volume"] == 23, "flywheeld to take Master's last raw 12 (23 %%) after %d events" % len(waiting))
    check(mixer_values(card, "Master Volume") == ["12", "12"], "the mixer moved after the read-back: %s" % mixer_values(card, "Master Volume"))

    # 1000 sets while the bridge runs, ending at raw -16 (10 %, which is raw -17).
    before = cpu_seconds(bridge.process.pid)
    start = time.monotonic()
    batch = ["cset numid=%d %d" % (master, -50 + step * 37 % 151) for step in range(999)] + ["cset numid=%d -16" % master]
    run = subprocess.run(["amixer", "-q", "-c", card, "-s"], input="\n".join(batch) + "\n", capture_output=True, text=True, timeout=TIMEOUT)
    check(run.returncode == 0 and run.stderr == "", "amixer -s: %s" % run.stderr)
    sets = time.monotonic() - start
    wait_until(lambda: client.state()["volume"]["volume"] == 10, "flywheeld to take Master's last raw -16 (10 %%)")
    caught_up = time.monotonic() - start
    spent = cpu_seconds(bridge.process.pid) - before
    rest = cpu_seconds(bridge.process.pid)
    time.sleep(1)  # measuring: the bridge's CPU over a second at rest after the burst
    rest = cpu_seconds(bridge.process.pid) - rest
    check(mixer_values(card, "Master Volume") == ["-16", "-16"], "the mixer moved after the burst's read-back: %s" % mixer_values(card, "Master Volume"))
    check(client.state()["volume"]["volume"] == 10, "flywheeld moved after the burst: %s" % client.state()["volume"])
    check(rest < 0.1, "the bridge spent %.2f s of CPU in the second after the burst" % rest)
    check(spent < caught_up, "the bridge spent %.2f s of CPU on 1000 sets in %.2f s" % (spent, caught_up))
    check_frugal(bridge, "flywheel alsa after %d pending events and a burst of 1000 sets" % len(waiting))
    print("     alsa: %d events pending for the stopped bridge; 1000 sets by amixer in %.2f s, flywheeld at the last %.2f s after the "
          "first; the bridge's CPU %.2f s over them, %.3f s in the second after" % (len(waiting), sets, caught_up, spent, rest), flush=True)
    bridge.stop()
    daemon.stop()


class KeyRecording:
    """`flywheel record NODE` as a child: the device read through libevdev (libevdev_next_event), as evemu
    text on its standard output. (code, value) of every EV_KEY `E:` line, in order; the header's lines too."""

    def __init__(self, node):
        self.process = subprocess.Popen([os.path.join(BIN, "flywheel"), "record", node, "--seconds", "600"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        RUNNING.append(self.process)
        self.header = []
        self.keys = []
        self.resynchronised = 0
        self.changed = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        # The node is open (and events queue for it) once the header is out.
        self.wait_for(lambda keys: any(line.startswith("# recorded from") for line in self.header), "flywheel record to open %s" % node)

    def read(self):
        for line in self.process.stdout:
            with self.changed:
                if line.startswith("E: "):  # E: sec.usec type code value, type and code in hex
                    _, _, kind, code, value = line.split()
                    if int(kind, 16) == 1:  # EV_KEY
                        self.keys.append((int(code, 16), int(value)))
                elif line.startswith("# libevdev resynchronised"):
                    self.resynchronised += 1
                else:
                    self.header.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, predicate, what, timeout=20):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self.keys):
                left = deadline - time.monotonic()
                check(left > 0 and self.process.poll() is None, "timed out waiting for %s; keys %s; flywheel record %s" % (
                    what, self.keys[-10:], "runs" if self.process.poll() is None else "exited: " + self.process.stderr.read()))
                self.changed.wait(left)

    def stop(self):
        """SIGTERM: the recording ends at once and cleanly, having lost nothing (no SYN_DROPPED)."""
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=TIMEOUT)
        check(status == 0, "flywheel record exited %d: %s" % (status, self.process.stderr.read()))
        check(self.resynchronised == 0, "libevdev resynchronised %d times: events were dropped" % self.resynchronised)


def test_keys_uinput():
    """flywheel keys: a knob's turn on the volume presses KEY_VOLUMEUP once per step flywheeld reports
    (the virtual keyboard read back through libevdev by `flywheel record`), a held button holds
    KEY_PLAYPAUSE, and flywheeld killed while it is held releases it; flywheeld back with the knob on the navigator, the same bridge
    presses KEY_NEXTSONG and KEY_PREVIOUSSONG once a detent, in the turns' order, a fast turn no more
    often than a slow one; SIGTERM ends the bridge at once."""
    daemon = Daemon(VOLUME_KNOB)
    client = daemon.client()
    bridge = Bridge(daemon.dir, "keys", "--socket", daemon.socket, "--map", "volume+=KEY_VOLUMEUP,volume-=KEY_VOLUMEDOWN", "--map", "BTN_0=KEY_PLAYPAUSE",
                    "--map", "navigate+=KEY_NEXTSONG,navigate-=KEY_PREVIOUSSONG")
    line = wait_until(lambda: next((l for l in bridge_log(bridge).splitlines() if "the keyboard 'Flywheel keys' is" in l), None), "the keyboard")
    reader = KeyRecording(line.rsplit(" ", 1)[-1].rstrip("."))
    check("N: Flywheel keys" in reader.header, "flywheel record's header: %s" % reader.header)
    wait_until(lambda: "connected to flywheeld" in bridge_log(bridge), "the bridge to connect")
    play(gentle_scenario(daemon.dir, "turn +12 at 20/s\nhold 300ms\nturn -5 at 20/s\nhold 300ms\n"), "--uinput", "--linger", "0.3")
    client.next_or_seen(lambda m: m["class"] == "volume" and m["phase"] == "settled")
    volumes = [m["volume"] for m in client.seen if m["class"] == "volume"]
    final = client.state()["volume"]["volume"]
    ups = sum(max(0, b - a) for a, b in zip([30] + volumes, volumes + [final]))
    downs = sum(max(0, a - b) for a, b in zip([30] + volumes, volumes + [final]))
    check(ups > 0 and downs > 0, "the volume moved %s" % volumes)
    reader.wait_for(lambda keys: keys.count((115, 1)) >= ups and keys.count((114, 1)) >= downs, "%d KEY_VOLUMEUP and %d KEY_VOLUMEDOWN" % (ups, downs))
    time.sleep(0.3)  # measuring: no more presses than steps come after
    check(reader.keys.count((115, 1)) == ups and reader.keys.count((114, 1)) == downs and reader.keys.count((115, 0)) == ups,
          "keys %s for volumes %s" % (reader.keys, volumes))
    holding = subprocess.Popen([os.path.join(BIN, "flywheel"), "sim", gentle_scenario(daemon.dir, "hold 100ms\npress\nhold 4s\nrelease\n"), "--uinput"],
                               stderr=subprocess.PIPE)
    RUNNING.append(holding)
    reader.wait_for(lambda keys: (164, 1) in keys, "KEY_PLAYPAUSE down")
    daemon.process.kill()
    killed = time.monotonic()
    reader.wait_for(lambda keys: (164, 0) in keys, "KEY_PLAYPAUSE up once flywheeld is gone", timeout=5)
    released = time.monotonic() - killed
    check(released < 1, "KEY_PLAYPAUSE released %.2f s after flywheeld died" % released)
    holding.wait(timeout=TIMEOUT)
    print("     keys: %d up, %d down for the volume's %s; KEY_PLAYPAUSE released %.0f ms after flywheeld was killed" % (
        ups, downs, volumes, released * 1e3), flush=True)
    # flywheeld back, its knob on the navigator: 12 detents on, 5 back, then a fast 8 on (acceleration
    # would make more steps of it than a slow turn's).
    with open(daemon.config, "w") as f:
        f.write(NAVIGATE_KNOB)
    daemon.start()
    client = daemon.client()
    wait_until(lambda: bridge_log(bridge).count("connected to flywheeld") >= 2, "the bridge to reconnect")
    before = len(reader.keys)
    play(gentle_scenario(daemon.dir, "turn +12 at 20/s\nhold 300ms\nturn -5 at 20/s\nhold 300ms\nturn +8 at 80/s\nhold 300ms\n"), "--uinput", "--linger", "0.3")
    steps = []

    def counted(message):
        if message["class"] == "navigate":
            steps.append(message["steps"])
        return sum(abs(n) for n in steps) >= 25
    client.next(counted)
    expected = [163] * 12 + [165] * 5 + [163] * 8
    check(sum(n for n in steps if n > 0) == 20 and sum(-n for n in steps if n < 0) == 5, "navigate steps %s for 12 on, 5 back, 8 on" % steps)
    pressed = lambda: [code for code, value in reader.keys[before:] if value == 1]
    reader.wait_for(lambda keys: len(pressed()) >= len(expected), "%d presses for the navigator" % len(expected))
    time.sleep(0.3)  # measuring: no more presses than detents come after
    check(pressed() == expected, "presses %s for navigate steps %s" % (pressed(), steps))
    check([code for code, value in reader.keys[before:] if value == 0] == expected, "releases %s" % reader.keys[before:])
    print("     keys: the navigator's %d messages %s made %d KEY_NEXTSONG and %d KEY_PREVIOUSSONG presses" % (
        len(steps), steps, pressed().count(163), pressed().count(165)), flush=True)
    check_frugal(bridge, "flywheel keys after its turns, a daemon killed and restarted")
    reader.stop()  # before the keyboard goes with the bridge
    start = time.monotonic()
    bridge.stop()
    check(time.monotonic() - start < 2, "SIGTERM took %.2f s" % (time.monotonic() - start))


TESTS = [test_powermate_uinput, test_shuttlexpress_uinput, test_bouncy_encoder_gpio_sim, test_gpio_overflow_gap, test_pi_header_layouts,
         test_pi_header_named_wrong, test_hotplug_uinput, test_unplugged_holding, test_unreadable_then_readable,
         test_two_knobs_uinput, test_midi_virmidi, test_powermate_led_beat, test_alsa_dummy, test_alsa_event_burst, test_keys_uinput]


def main(names):
    for module in ["uinput", "evdev", "gpio-sim"]:
        subprocess.run(["modprobe", module], check=True)
    selected = [t for t in TESTS if not names or t.__name__ in names]
    failed = 0
    for test in selected:
        start = time.monotonic()
        try:
            test()
            print("ok   %s (%.1f s)" % (test.__name__, time.monotonic() - start), flush=True)
        except Exception as error:  # a failure or an unexpected error: report it and go on
            failed += 1
            print("FAIL %s: %s: %s" % (test.__name__, type(error).__name__, error), flush=True)
        finally:
            for process in RUNNING:  # a failed test's daemon must not take the next test's device
                if process.poll() is None:
                    process.kill()
                    process.wait()
            RUNNING.clear()
    print("%d of %d kernel-lane tests passed" % (len(selected) - failed, len(selected)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
