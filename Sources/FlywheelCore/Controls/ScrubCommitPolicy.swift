/// When a scrub driven by a knob or a touch panel commits. The input kind decides by default:
/// a detented knob or jog wheel commits on rest, a touch panel or strip is armed.
package enum ScrubCommitPolicy: String, Sendable, Hashable, CaseIterable {
    /// Castro's arming: the scrub is armed 0.2 s after it began, and a hand that lets go before
    /// that cancels it and rolls back to where it began. For touch panels and strips, where a
    /// swipe can be an accident.
    case armed
    /// The scrub commits when the knob has come to rest and the hand has been still for the rest
    /// delay (``ScrubControl/restCommitNanoseconds``); it is never cancelled. On a detented knob
    /// or jog wheel every click is deliberate: a single click seeks, a slow turn seeks once (not
    /// once per detent, so a player is not flooded with seeks), a flick commits where it lands.
    case onRest = "on-rest"
}
