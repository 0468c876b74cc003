import FlywheelIO

extension ProfileLibrary {
    /// The `hardware/` folders found from the folder the running program is in (`folder`, from
    /// /proc/self/exe): an installed or unpacked package's `<prefix>/bin/flywheel` →
    /// `<prefix>/share/flywheel/hardware`, and a checkout's `.build/<config>/flywheel` or
    /// `.build/<triple>/<config>/flywheel` → `<checkout>/hardware`.
    static func besideExecutable(_ folder: String? = ExecutablePath.folder()) -> [String] {
        guard let folder else { return [] }
        return [folder + "/../share/flywheel/hardware", folder + "/../../hardware", folder + "/../../../hardware"]
    }
}
