import FlywheelCore

/// A scenario could not be read or does not fit its device. Its description is one sentence
/// naming the file, the line and what was expected:
/// `hardware/scenarios/bouncy-knob.sim line 9: expected 'turn ±N at V/s' with N a non-zero whole number, got 'turn five'.`
public typealias ScenarioError = FileLineError
