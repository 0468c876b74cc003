import Testing
@testable import FlywheelCore

/// Who receives what: the classes a client can choose and those everyone gets; a subscription as
/// bits (what the socket server asks on every delivered line) says what the subscription says.
@Suite("Message classes")
struct MessageClassTests {
    @Test("a class is delivered to everyone exactly when it is not one a client watches")
    func alwaysDelivered() {
        for messageClass in MessageClass.allCases {
            #expect(messageClass.isAlwaysDelivered == !MessageClass.watchable.contains(messageClass), "\(messageClass)")
        }
    }

    @Test("every class has a bit of its own")
    func distinctBits() {
        let bits = MessageClass.allCases.map(\.bit)
        #expect(Set(bits).count == MessageClass.allCases.count)
        #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 })
    }

    @Test("classMask & bit agrees with wants for every class, with and without frames, any classes watched")
    func maskAgrees() {
        let watched: [Set<MessageClass>?] = [nil, [], [.tempo], [.frame], [.scrub, .button, .gap], Set(MessageClass.watchable)]
        for classes in watched {
            for frames in [false, true] {
                let subscription = Subscription(classes: classes, frames: frames)
                for kind in MessageClass.allCases {
                    let message = ServerMessage(messageClass: kind, fields: [], timeNanoseconds: 0, isFrame: kind == .frame, coalescingKey: nil)
                    #expect((subscription.classMask & kind.bit != 0) == subscription.wants(message), "\(kind) \(String(describing: classes)) \(frames)")
                }
            }
        }
    }
}
