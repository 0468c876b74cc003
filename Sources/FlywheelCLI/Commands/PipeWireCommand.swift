import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// `flywheel pipewire [--socket PATH] [--mute-button BUTTON]`
enum PipeWireCommand {
    static let usage = """
        flywheel pipewire [--socket PATH] [--mute-button BUTTON]
            Keep the volume of PipeWire's default sink in step with flywheeld's volume control, through
            WirePlumber's wpctl (set-volume @DEFAULT_AUDIO_SINK@, one at a time, the latest winning; the
            volume on the desktop slider's scale: 50 is wpctl's 0.50); a volume set elsewhere comes back,
            read when pw-mon reports a change. A tap of BUTTON (BTN_0…BTN_9 or a key code) toggles the
            mute. Runs as the user whose PipeWire it drives (XDG_RUNTIME_DIR); needs wpctl (wireplumber)
            and pw-mon (pipewire-bin) on PATH. Retries while PipeWire is away; exits on SIGTERM.
            Example: flywheel pipewire --mute-button BTN_0
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "pipewire")
        let socket = try SocketOption.path(&args)
        let muteButton = try HTTPVolumeCommand.muteButton(&args)
        _ = try args.positionals("no other arguments", count: 0...0)
        guard let wpctl = ChildOutput.find("wpctl") else {
            throw ToolError("'pipewire' needs wpctl, WirePlumber's control tool, on PATH; install it (sudo apt-get install wireplumber).")
        }
        guard let monitor = ChildOutput.find("pw-mon") else {
            throw ToolError("'pipewire' needs pw-mon, PipeWire's monitor, on PATH; install it (sudo apt-get install pipewire-bin).")
        }
        try PipeWireBridge(flywheel: socket, wpctl: wpctl, monitor: monitor, muteButton: muteButton, log: { console.err($0 + "\n") }).run()
    }
}
