import FlywheelCore
import FlywheelIO
import FlywheelFormats

/// A replay file loaded by its kind: a quadrature trace (VCD, `.edges`) or evdev events (evemu).
public enum ReplayInput: Sendable {
    case quadrature(QuadratureTrace, name: String?, marks: [EdgeLog.Mark] = [])
    case evdev(EvemuRecording)

    /// Reads `path`; VCD files need the channel names `channels` ("A,B").
    public static func load(_ path: String, channels: String?) throws(ToolError) -> ReplayInput {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path) } catch { throw ToolError(error) }
        do {
            if path.hasSuffix(".vcd") || bytes.starts(with: Array("$".utf8)) {
                guard let channels else {
                    let names = (try? VCD.channels(in: bytes, file: path))?.map { "'\($0)'" }.joined(separator: ", ") ?? "none"
                    throw ToolError.usage(
                        "\(path) is a VCD file: choose its A and B channels with --channels A,B (it has \(names))")
                }
                let pair = channels.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
                    throw ToolError.usage("--channels takes two channel names separated by a comma, such as XA,XB, not '\(channels)'")
                }
                return .quadrature(try VCD.trace(bytes, a: pair[0], b: pair[1], file: path), name: nil)
            }
            if path.hasSuffix(".edges") || bytes.starts(with: Array(EdgeLog.marker.utf8)) {
                let log = try EdgeLog.parse(bytes, file: path)
                return .quadrature(log.trace, name: log.name, marks: log.marks)
            }
            return .evdev(try EvemuRecording.parse(bytes, file: path))
        } catch let error as FileLineError {
            throw ToolError(error)
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError("\(path): \(error)")
        }
    }
}
