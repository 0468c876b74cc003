@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// udev/web/flywheel.html in a real headless Chromium, fed by a real websocketd (Debian's) in front
/// of `flywheel connect`, in front of a real flywheeld: what the daemon sends is what the page shows.
@Suite("the web page through websocketd and flywheel connect, in headless Chromium", .serialized)
struct WebPageTests {
    typealias Harness = MPDBridgeTests
    static let websocketd = "/usr/bin/websocketd"
    static let installed = access(websocketd, X_OK) == 0 && access(HeadlessChromium.path, X_OK) == 0
    /// CI installs both on the host (Tests/scripts/test.sh): there the test runs, and fails if they are
    /// missing. The distro lane (FLYWHEEL_LANE=distro, a minimal Debian 13 root) has no browser.
    static let required = HostTools.required

    /// Whether something listens on 127.0.0.1:`port` over TCP (state 0A in /proc/net/tcp).
    static func listening(tcpPort port: Int) -> Bool {
        let hex = String(port, radix: 16, uppercase: true)
        let local = "0100007F:" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return (RepositoryPaths.read("/proc/net/tcp") ?? "").split(separator: "\n").contains {
            let fields = $0.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] == "0A"
        }
    }

    /// A promise for the text of the element `id` once it is `text` (watched with a MutationObserver,
    /// not polled), or whatever it shows after 20 s.
    static func shows(_ id: String, _ text: String) -> String {
        """
        new Promise((resolve) => {
          const element = document.getElementById("\(id)");
          const observer = new MutationObserver(() => check());
          const check = () => { if (element.textContent === "\(text)") { observer.disconnect(); resolve(element.textContent); } };
          observer.observe(element, { subtree: true, childList: true, characterData: true });
          check();
          setTimeout(() => { observer.disconnect(); resolve(element.textContent); }, 20000);
        })
        """
    }

    @Test("the page shows the state flywheeld answers, then the tempo, mode and volume it pushes; its +1 button sets the daemon's tempo",
          .enabled(if: installed || required, "websocketd or chromium is not installed (Tests/scripts/test.sh installs them on the host)"))
    func page() throws {
        try #require(Self.installed, "CI=true: websocketd and chromium must be installed (Tests/scripts/test.sh installs them)")
        var template = Array("/tmp/flywheel-web-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let daemon = try DaemonProcess([], socketPath: directory + "/flywheel.sock")
        defer { _ = daemon.stop() }
        // Another client of the daemon: it sets what the page must show.
        let other = try TestClient(daemon.socketPath)
        func set(_ command: String) -> JSONValue? {
            other.send(command)
            return other.next { $0["class"] == .string("state") || $0["class"] == .string("error") }
        }
        #expect(set(#"{"cmd":"set","control":"tempo","bpm":137}"#)?["tempo"]?["bpm"]?.doubleValue == 137)
        #expect(set(#"{"cmd":"set","control":"scrub","duration":200,"position":50}"#)?["scrub"]?["position"]?.doubleValue == 50)

        let port = OSCBridgeTests.freePort(stream: true)
        let gateway = try Harness.Background(
            [Self.websocketd, "--address=127.0.0.1", "--port=\(port)", "--staticdir=" + RepositoryPaths.path("udev/web"),
             ChildProcess.product("flywheel"), "connect", "--socket", daemon.socketPath],
            stderrPath: directory + "/websocketd.log")
        defer { gateway.stop() }
        #expect(Harness.eventually { Self.listening(tcpPort: port) }, "\(RepositoryPaths.read(directory + "/websocketd.log") ?? "")")

        let browser = try HeadlessChromium(profileDirectory: directory + "/chromium", logPath: directory + "/chromium.log")
        defer { browser.stop() }
        try browser.open("http://127.0.0.1:\(port)/flywheel.html")
        // The state, asked for on the page's connection.
        #expect(try browser.evaluate(Self.shows("tempo", "137")) == .string("137"))
        #expect(try browser.evaluate(Self.shows("scrub", "0:50.0")) == .string("0:50.0"))
        #expect(try browser.evaluate("document.getElementById('scrub-bar').position").doubleValue == 0.25)
        #expect(try browser.evaluate(Self.shows("mode", "tempo")) == .string("tempo"))
        #expect(try browser.evaluate("document.getElementById('arc').getAttribute('d')").stringValue?.hasPrefix("M ") == true)

        // Pushed: the events for what the other client sets.
        _ = set(#"{"cmd":"set","control":"tempo","bpm":141}"#)
        #expect(try browser.evaluate(Self.shows("tempo", "141")) == .string("141"))
        _ = set(#"{"cmd":"set","control":"mode","mode":"scrub"}"#)
        #expect(try browser.evaluate(Self.shows("mode", "scrub")) == .string("scrub"))
        _ = set(#"{"cmd":"set","control":"volume","volume":40}"#)
        #expect(try browser.evaluate(Self.shows("volume", "40")) == .string("40"))

        // The other way: the page's +1 button sets the daemon's tempo, which every client hears.
        _ = try browser.evaluate("document.getElementById('faster').click()")
        let heard = other.next { $0["class"] == .string("tempo") && $0["phase"] == .string("set") && $0["bpm"]?.doubleValue == 142 }
        #expect(heard != nil)
        #expect(try browser.evaluate(Self.shows("tempo", "142")) == .string("142"))
    }
}
