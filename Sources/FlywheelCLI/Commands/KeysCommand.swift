import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// `flywheel keys [--socket PATH] --map SOURCE=KEY[,SOURCE=KEY…] ... [--name NAME]`
enum KeysCommand {
    static let usage = """
        flywheel keys [--socket PATH] --map SOURCE=KEY[,SOURCE=KEY...] ... [--name NAME]
            A virtual keyboard (uinput) whose keys the knobs and buttons press: SOURCE is volume+, volume-,
            tempo+, tempo-, navigate+ or navigate- (a step of that control up or down), cw or ccw (a step of
            any control without its own), or a button (BTN_0…BTN_9 or a key code, held as long as the
            button is); KEY any KEY_* name of linux/input-event-codes.h. One key press per step flywheeld
            reports, so an accelerated turn repeats the key; a value set by a client presses none. The
            keyboard is called NAME (Flywheel keys). Held keys are released when flywheeld goes away;
            reconnects; exits on SIGTERM. Needs write access to /dev/uinput.
            Example: flywheel keys --map volume+=KEY_VOLUMEUP,volume-=KEY_VOLUMEDOWN,navigate+=KEY_NEXTSONG,navigate-=KEY_PREVIOUSSONG,BTN_0=KEY_PLAYPAUSE
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "keys")
        let socket = try SocketOption.path(&args)
        var map = KeyMap()
        for text in try args.options("map") { try map.add(text, keyCode: VirtualKeyboard.keyCode(named:)) }
        guard !map.keys.isEmpty else { throw .usage("'keys' needs --map SOURCE=KEY (e.g. volume+=KEY_VOLUMEUP,volume-=KEY_VOLUMEDOWN)", help: true) }
        let name = try args.option("name") ?? "Flywheel keys"
        guard !name.isEmpty, name.utf8.count < 80 else { throw .usage("--name takes a name of 1 to 79 bytes") }
        _ = try args.positionals("no other arguments", count: 0...0)
        let keyboard: VirtualKeyboard
        do { keyboard = try VirtualKeyboard(name: name, keys: map.allKeys) } catch {
            throw ToolError("the virtual keyboard cannot be made: \(error.description)")
        }
        let log = { (text: String) in console.err(text + "\n") }
        log("flywheel keys: the keyboard '\(name)' is \(keyboard.devnode).")
        let bridge = KeysBridge(flywheel: socket, map: map, log: log) { code, down in
            do throws(SystemError) { try keyboard.set(code, down: down) } catch { log("flywheel keys: \(error.description)") }
        }
        try bridge.run()
        keyboard.destroy()
    }
}
