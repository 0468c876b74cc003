import Glibc
import FlywheelCLI
import FlywheelIO

let status = FlywheelTool.run(
    Array(CommandLine.arguments.dropFirst()),
    console: Console(
        out: { try? FileOutput.standardOutput.write($0) },
        err: { try? FileOutput.standardError.write($0) }))
exit(status)
