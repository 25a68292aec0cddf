import Foundation
import TestSupport

/// The package's source root, found from this file's place in `Tests/PackagingTests/`.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The path of a program these tests use from Debian (a shell, a linter), or nil when it is missing.
func tool(_ name: String) -> String? {
    ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs a program from Debian (not one of ours) off the cooperative pool.
func runTool(_ path: String, _ arguments: [String], stdin: String? = nil) async throws -> CommandResult {
    try await BlockingWork.run { try CommandRunner.run(executableURL: URL(fileURLWithPath: path), arguments, stdin: stdin.map { Data($0.utf8) }) }
}

/// One command of a built executable as its `--help` describes it.
struct HelpedCommand: Sendable {
    var path: [String]
    var help: HelpText
    var title: String { path.joined(separator: " ") }
}

/// Every command of `executable`, found by asking the built binary for `--help` at each level: the
/// commands the user sees, independently of how the generators walk the spec tree.
func helpTree(of executable: String) async throws -> [HelpedCommand] {
    var commands: [HelpedCommand] = []
    var pending = [[executable]]
    while let path = pending.popLast() {
        let result = try await BlockingWork.run { try CommandRunner.run(executable, Array(path.dropFirst()) + ["--help"]) }
        guard result.status == 0 else { throw HelpTreeError(path: path, stderr: result.stderr) }
        let help = HelpText(result.stdout)
        commands.append(HelpedCommand(path: path, help: help))
        pending += help.commands.map { path + [$0] }
    }
    return commands
}

struct HelpTreeError: Error, CustomStringConvertible {
    var path: [String]
    var stderr: String
    var description: String { "\(path.joined(separator: " ")) --help failed: \(stderr)" }
}
