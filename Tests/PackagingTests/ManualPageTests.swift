import Foundation
import Testing
import TestSupport

@Suite("Manual pages of the built executables")
struct ManualPageTests {
    @Test("Each page has a subsection for every command --help shows and every option of each", arguments: ["airlab", "airlabd"])
    func coversHelp(_ executable: String) async throws {
        let commands = try await helpTree(of: executable)
        let page = try await BlockingWork.run { try CommandRunner.run(executable, ["--generate-man"]) }
        #expect(page.status == 0, "\(page.stderr)")
        let lines = Set(page.stdout.split(separator: "\n").map(String.init))
        for command in commands.dropFirst() {
            #expect(lines.contains(".SS \"\(command.title)\""), "no subsection for \(command.title)")
        }
        for command in commands {
            for option in command.help.options {
                let label = "\\fB\\-\\-\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR"
                #expect(lines.contains { $0.hasPrefix(label) }, "\(command.title) --\(option)")
            }
        }
    }

    @Test("mandoc and groff read each page without a warning, and man renders it", arguments: ["airlab", "airlabd"])
    func lints(_ executable: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let page = try await BlockingWork.run { try CommandRunner.run(executable, ["--generate-man"]) }
        let file = try scratch.write("\(executable).1", page.stdout)
        var checked = 0
        if let mandoc = tool("mandoc") {
            let lint = try await runTool(mandoc, ["-T", "lint", "-W", "warning", file.path])
            #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
            checked += 1
        }
        if let groff = tool("groff") {
            let render = try await runTool(groff, ["-man", "-Tutf8", "-ww", "-z", file.path])
            #expect(render.status == 0 && render.stderr.isEmpty, "\(render.stderr)")
            checked += 1
        }
        if let man = tool("man") {
            let shown = try await runTool(man, ["-l", "-P", "cat", file.path])
            #expect(shown.status == 0, "\(shown.stderr)")
            for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"] {
                #expect(shown.stdout.contains("\n\(heading)\n"), "no \(heading) in \(shown.stdout)")
            }
            #expect(shown.stdout.contains("       --help"))
            checked += 1
        }
        #expect(checked == 3, "mandoc, groff or man is missing: scripts/install-dependencies installs them")
    }
}
