import Glibc

/// Whether tools Tests/scripts/test.sh installs on the host (strace, websocketd, chromium) must be
/// there: under CI on the host, yes (a test needing one fails without it); in a lane's minimal root
/// (FLYWHEEL_LANE=distro, a Debian 13 root; FLYWHEEL_LANE=arm64, the arm64 root under qemu-user) or
/// by hand, a test may skip, saying so.
enum HostTools {
    static let required = getenv("CI").map { String(cString: $0) } == "true" && getenv("FLYWHEEL_LANE") == nil
}
