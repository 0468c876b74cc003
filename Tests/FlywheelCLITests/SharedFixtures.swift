import Testing

/// The sentence a test says when it is skipped for want of `../shared/fixtures` (the same as
/// FlywheelFormatsTests' own).
enum SharedFixtures {
    static let absent = Comment(rawValue: absentSentence)

    static let absentSentence = """
        it replays recordings other people made (logic-analyser captures, real devices' and \
        touch panels' event streams), kept outside this repository in shared/fixtures beside the checkout \
        (../shared/fixtures), which this machine does not have; every other test runs without them
        """
}
