import FlywheelIO

/// Where flywheeld's socket is when nobody names it, worked out alike by the daemon (where it
/// listens) and by every client command (where it connects), so that `flywheeld &` and then
/// `flywheel watch` meet without `--socket`.
public enum SocketLocation {
    /// The environment variable every client command reads before its default: `FLYWHEEL_SOCKET`.
    public static let environmentVariable = "FLYWHEEL_SOCKET"

    /// Where flywheeld listens when neither `--socket` nor the configuration names a path:
    /// `$RUNTIME_DIRECTORY/flywheel.sock` (systemd), `/run/flywheel/flywheel.sock` as root,
    /// `$XDG_RUNTIME_DIR/flywheel.sock`, else `/tmp/flywheel-UID.sock`.
    public static func daemonDefault() -> String { candidates()[0] }

    /// Where a client connects without `--socket`: `$FLYWHEEL_SOCKET` when set; else in a unit with
    /// a runtime directory, `$RUNTIME_DIRECTORY/flywheel.sock`; else the first of the installed path
    /// and the user's own defaults (`$XDG_RUNTIME_DIR/flywheel.sock`, `/tmp/flywheel-UID.sock`)
    /// that has a socket; else the installed path, `/run/flywheel/flywheel.sock`.
    public static func clientDefault() -> String {
        if let named = Environment.value(environmentVariable), !named.isEmpty { return named }
        let places = candidates()
        if Environment.value("RUNTIME_DIRECTORY") != nil { return places[0] }
        return ([installed] + places).first(where: FileSystem.exists) ?? installed
    }

    /// The path the package's socket unit listens on.
    public static let installed = "/run/flywheel/flywheel.sock"

    /// The default places in the daemon's order of preference.
    static func candidates() -> [String] {
        var places: [String] = []
        if let runtime = Environment.value("RUNTIME_DIRECTORY"), let first = runtime.split(separator: ":").first {
            places.append(first + "/flywheel.sock")
        }
        if CurrentProcess.isRoot { places.append(installed) }
        if let xdg = Environment.value("XDG_RUNTIME_DIR") { places.append(xdg + "/flywheel.sock") }
        places.append("/tmp/flywheel-\(CurrentProcess.userID).sock")
        return places
    }
}
