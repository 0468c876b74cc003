import Testing
@testable import FlywheelCore

/// Who receives what: the classes a client can choose and those everyone gets.
@Suite("Message classes")
struct MessageClassTests {
    @Test("a class is delivered to everyone exactly when it is not one a client watches")
    func alwaysDelivered() {
        for messageClass in MessageClass.allCases {
            #expect(messageClass.isAlwaysDelivered == !MessageClass.watchable.contains(messageClass), "\(messageClass)")
        }
    }
}
