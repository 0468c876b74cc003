import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// `flywheel alsa [--socket PATH] --card CARD --control NAME [--mute-button BUTTON ...]`
enum ALSACommand {
    static let usage = """
        flywheel alsa [--socket PATH] --card CARD --control NAME [--mute-button BUTTON ...]
            Drive an ALSA mixer control from flywheeld's volume, through the kernel's control device
            (/dev/snd/controlC*): CARD is the card's number or id (as in /proc/asound/cards), NAME a simple
            control (Master, PCM, Speaker: its "NAME Playback Volume" or "NAME Volume" element) or an
            element's full name. The volume is alsamixer's: cubic in dB over ranges above 24 dB, linear
            below. The mixer's changes from elsewhere come back to flywheeld, within its volume cap; a tap
            of BUTTON (BTN_0…BTN_9 or a key code) turns the control's switch off and on (mute). Says so and
            retries when the card goes away; reconnects to flywheeld; exits on SIGTERM.
            Example: flywheel alsa --card 0 --control Master --mute-button BTN_0
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "alsa")
        let socket = try SocketOption.path(&args)
        guard let card = try args.option("card"), !card.isEmpty else {
            throw .usage("'alsa' needs --card CARD (the sound card's number or id, as in /proc/asound/cards)", help: true)
        }
        guard let control = try args.option("control"), !control.isEmpty, control.utf8.count < 44 else {
            throw .usage("'alsa' needs --control NAME (a mixer control such as Master or PCM, at most 43 bytes)", help: true)
        }
        var options = ALSABridge.Options(card: card, control: control)
        for text in try args.options("mute-button") {
            guard let code = KeyCode.button(named: text) else {
                throw .usage("--mute-button takes a button as BTN_0…BTN_9 or a key code such as 256, not '\(text)'")
            }
            options.muteButtons.insert(Int(code))
        }
        _ = try args.positionals("no other arguments", count: 0...0)
        try ALSABridge(flywheel: socket, options: options, log: { console.err($0 + "\n") }).run()
    }
}
