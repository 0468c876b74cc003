// flywheeld: serves tempo and scrub events from knobs with physical feel on a Unix socket.
import FlywheelDaemon
import FlywheelIO

CurrentProcess.exit(MainActor.assumeIsolated { Daemon.main(Array(CommandLine.arguments.dropFirst())) })
