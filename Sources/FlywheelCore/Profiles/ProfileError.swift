/// A device profile could not be read: one sentence naming the file, the line and the key,
/// `hardware/ec11.profile line 7: key 'steps_per_detent' must be 1, 2 or 4, got '3'.`
package typealias ProfileError = FileLineError
