import Glibc

/// Whether tools Tests/scripts/test.sh installs on the host (strace, websocketd, chromium) must be
/// there: under CI on the host, yes (a test needing one fails without it); in the distro lane
/// (FLYWHEEL_LANE=distro, a minimal Debian 13 root) or by hand, a test may skip, saying so.
enum HostTools {
    static let required = getenv("CI").map { String(cString: $0) } == "true" && getenv("FLYWHEEL_LANE").map { String(cString: $0) } != "distro"
}
