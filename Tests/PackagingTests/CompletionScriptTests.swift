import Foundation
import Testing
import TestSupport

private let executables = ["airlab", "airlabd"]

/// What `SHELL` offers when a user has typed `line` (the cursor at its end), from `airlab`'s or
/// `airlabd`'s generated script, by running the script in that shell.
private func offered(_ shell: String, script: URL, line: String) async throws -> [String] {
    switch shell {
    case "bash":
        let bash = try #require(tool("bash"))
        // COMP_WORDS as bash splits the line at spaces, with an empty last word after a trailing space.
        var words = line.split(separator: " ").map(String.init)
        if line.hasSuffix(" ") { words.append("") }
        let quotedWords = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
            source '\(script.path)'
            COMP_WORDS=(\(quotedWords)); COMP_CWORD=\(words.count - 1)
            _\(words[0])_complete
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await runTool(bash, ["--norc", "-c", program])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    case "fish":
        let fish = try #require(tool("fish"))
        let result = try await runTool(fish, ["--no-config", "-c", "source '\(script.path)'; complete -C '\(line)'"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    default:
        Issue.record("no way to run completions in \(shell)")
        return []
    }
}

@Suite("Shell completions of the built executables")
struct CompletionScriptTests {
    @Test("Each script names every command and every option that --help shows, at every level", arguments: executables)
    func coversHelp(_ executable: String) async throws {
        let commands = try await helpTree(of: executable)
        #expect(commands.count > 1 || executable == "airlabd")
        for shell in ["bash", "zsh", "fish"] {
            let script = try await BlockingWork.run { try CommandRunner.run(executable, ["--generate-completion", shell]) }
            #expect(script.status == 0, "\(script.stderr)")
            for command in commands {
                for sub in command.help.commands {
                    #expect(script.stdout.contains("'\(command.title):\(sub)'"), "\(shell): \(command.title) \(sub)")
                }
                for option in command.help.options {
                    let form = shell == "fish" ? "-l '\(option)'" : "--\(option)"
                    #expect(script.stdout.contains(form), "\(shell): \(command.title) --\(option)")
                }
            }
        }
    }

    @Test("Each script is valid in its shell (bash -n, zsh -n, fish -n)", arguments: executables)
    func syntax(_ executable: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for shell in ["bash", "zsh", "fish"] {
            guard let path = tool(shell) else {
                Issue.record("\(shell) is missing: scripts/install-dependencies installs it")
                continue
            }
            let script = try await BlockingWork.run { try CommandRunner.run(executable, ["--generate-completion", shell]) }
            let file = try scratch.write("\(executable).\(shell)", script.stdout)
            let checked = try await runTool(path, ["-n", file.path])
            #expect(checked.status == 0 && checked.stderr.isEmpty, "\(shell) -n \(executable): \(checked.stderr)")
            if shell == "zsh" {
                // Sourced after compinit, the script registers its function for the executable.
                let registered = try await runTool(
                    path, ["-f", "-c", "autoload -Uz compinit && compinit -u -D && source '\(file.path)' && print -r -- ${_comps[\(executable)]}"])
                #expect(registered.stdout == "_\(executable)\n", "zsh: \(registered.stdout)\(registered.stderr)")
            }
        }
    }

    @Test(
        "Run in bash and fish, the scripts complete subcommands, options and choices for the command typed so far",
        arguments: ["bash", "fish"])
    func completes(_ shell: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var scripts: [String: URL] = [:]
        for executable in executables {
            let script = try await BlockingWork.run { try CommandRunner.run(executable, ["--generate-completion", shell]) }
            scripts[executable] = try scratch.write("\(executable).\(shell)", script.stdout)
        }
        let airlab = try #require(scripts["airlab"])
        let airlabd = try #require(scripts["airlabd"])

        #expect(try await offered(shell, script: airlab, line: "airlab pl").contains("playlist"))
        #expect(try await offered(shell, script: airlab, line: "airlab playlist ") .contains("inspect"))
        let inspect = try await offered(shell, script: airlab, line: "airlab playlist inspect --")
        #expect(inspect.contains("--json") && inspect.contains("--timeout") && inspect.contains("--help"))
        #expect(!inspect.contains("--profile"), "another command's option")
        // A value option's value is skipped on the way: after it, the same command's options follow.
        let afterValue = try await offered(shell, script: airlab, line: "airlab lab run --seed 3 --ti")
        #expect(afterValue.contains("--time-scale"))
        #expect(Set(try await offered(shell, script: airlab, line: "airlab lab run --media ")) == ["probe", "verify", "realtime"])
        #expect(Set(try await offered(shell, script: airlabd, line: "airlabd --log-format ")) == ["text", "json"])
        #expect(try await offered(shell, script: airlabd, line: "airlabd --st").contains("--state-dir"))
    }
}
