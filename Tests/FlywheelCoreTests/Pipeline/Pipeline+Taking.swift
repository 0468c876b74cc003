@testable import FlywheelCore

/// A test reads each step's messages as they come: the step, then what it wrote to the outbox.
extension Pipeline {
    /// ``Pipeline/advance(to:)``'s messages.
    func advanced(to now: Nanoseconds) -> [ServerMessage] {
        advance(to: now)
        return takeMessages()
    }

    /// ``Pipeline/input(_:from:)``'s messages.
    func fed(_ inputs: [DeviceInput], from device: InputDevice) -> [ServerMessage] {
        input(inputs, from: device)
        return takeMessages()
    }
}
