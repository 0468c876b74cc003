import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel mqtt [--socket PATH] --broker HOST:PORT [--prefix P] [--discovery PREFIX|off] [--client-id ID]`
enum MQTTCommand {
    static let usage = """
        flywheel mqtt [--socket PATH] --broker HOST:PORT [--prefix TOPIC] [--discovery PREFIX|off] [--client-id ID]
            Put flywheeld's controls on an MQTT 3.1.1 broker: TOPIC/tempo (BPM), TOPIC/volume, TOPIC/mode and
            TOPIC/scrub/position, retained, at most every 50 ms; TOPIC/status online or offline (the will);
            TOPIC/tempo/set, TOPIC/volume/set and TOPIC/mode/set set them. TOPIC is flywheel unless --prefix
            says; Home Assistant discovery goes under PREFIX (homeassistant; off for none): a number for the
            tempo and the volume, a select for the mode. $MQTT_USERNAME and $MQTT_PASSWORD log in. Reconnects
            to either side; exits on SIGTERM, saying offline.
            Example: flywheel mqtt --broker 127.0.0.1:1883
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "mqtt")
        let socket = try SocketOption.path(&args)
        guard let broker = try args.option("broker") else { throw .usage("'mqtt' needs --broker HOST:PORT (where the MQTT broker listens)", help: true) }
        var options = MQTTBridge.Options(broker: broker)
        if let prefix = try args.option("prefix") {
            guard !prefix.isEmpty, prefix.count <= 128, !prefix.contains("+"), !prefix.contains("#"), !prefix.hasSuffix("/") else {
                throw .usage("--prefix takes a topic without + or # and not ending in /, not '\(prefix)'")
            }
            options.prefix = prefix
        }
        if let discovery = try args.option("discovery") {
            guard !discovery.isEmpty, !discovery.contains("+"), !discovery.contains("#") else {
                throw .usage("--discovery takes a topic prefix (homeassistant) or off, not '\(discovery)'")
            }
            options.discoveryPrefix = discovery == "off" ? nil : discovery
        }
        var host = [CChar](repeating: 0, count: 256)
        let name = gethostname(&host, host.count) == 0 ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        options.clientID = try args.option("client-id") ?? "flywheel-\(name)"
        options.username = Environment.value("MQTT_USERNAME")
        options.password = Environment.value("MQTT_PASSWORD")
        _ = try args.positionals("no other arguments", count: 0...0)
        try MQTTBridge(flywheel: socket, options: options, log: { console.err($0 + "\n") }).run()
    }
}
