// flywheeld: the Flywheel daemon. This build knows its command line and nothing more yet: the event
// loop, the socket protocol and the backends arrive in later work. It never pretends to run.
import FlywheelIO
import Glibc

let usage = """
    flywheeld — serves tempo and scrub events from knobs, jog wheels and touch panels on a Unix socket.

    Usage: flywheeld [--help] [--version]

    This build has no event loop yet: it prints this text and exits. Use `flywheel decode` and
    `flywheel sim` to work with recordings and the firmware simulator.

    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "--help", "-h":
    try? FileOutput.standardOutput.write(usage)
    exit(arguments.isEmpty ? 2 : 0)
case "--version":
    try? FileOutput.standardOutput.write("flywheeld 0.1.0\n")
    exit(0)
default:
    try? FileOutput.standardError.write("flywheeld: unknown option '\(arguments[0])'; run 'flywheeld --help'.\n")
    exit(2)
}
