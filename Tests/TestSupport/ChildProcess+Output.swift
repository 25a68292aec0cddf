@_exported import ChildProcess
import Foundation

extension ChildProcess {
    /// Starts `arguments[0]` with standard output and error appended to `output`: a long-running
    /// child of a test (avahi-daemon, airlabd) whose log the test reads when it needs to.
    public convenience init(_ arguments: [String], output: URL) throws {
        try self.init(arguments, standardOutput: .file(output, append: true), standardError: .standardOutput)
    }
}
