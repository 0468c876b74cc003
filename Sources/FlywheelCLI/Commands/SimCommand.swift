/// `flywheel sim SCENARIO.sim [--seed N] --emit edges|evemu | --truth` (filled in with the simulator).
enum SimCommand {
    static let usage = """
        flywheel sim SCENARIO.sim [--seed N] (--emit edges|evemu | --truth)
            Run the firmware simulator on a scenario and print the device stream or the true net detents.
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        throw ToolError("the simulator is not wired in yet")
    }
}
