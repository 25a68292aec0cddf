import Testing
@testable import Arguments

/// A tree with what a generator must carry through: nesting, a group beside a leaf, choices, a
/// repeatable value, an optional positional, and help text with quotes, brackets, colons, a dollar, a
/// backslash, a leading dot and characters past ASCII.
private let tree = CommandSpec(
    name: "tool", abstract: "A tool's \"abstract\": it's [bracketed] and costs $0.",
    subcommands: [
        CommandSpec(
            name: "media", abstract: "Media: files…",
            subcommands: [
                CommandSpec(
                    name: "probe", abstract: "Probe one file.",
                    discussion: ".A line that looks like a request, a back\\slash,\n\n  an indented – table row",
                    positionals: [PositionalSpec("INPUT", help: "A path."), PositionalSpec("MORE", help: "Optional.", isOptional: true)],
                    options: [
                        .flag("json", help: "Print JSON; it's 'quoted'."),
                        .value("format", "text|json", help: "How: [text] or json."),
                        .value("header", "LINE", help: "A header: name: value.", repeatable: true),
                    ]),
            ]),
        CommandSpec(name: "serve", abstract: "Serve.", options: [.value("port", "PORT", help: "Port.", default: "7000")]),
    ],
    version: "9.8.7")

@Suite("Generated completions and manual pages")
struct GeneratedTextTests {
    @Test("The tree walk names every command once, each before its subcommands, in declared order")
    func treeWalk() {
        #expect(tree.commandTree.map(\.title) == ["tool", "tool media", "tool media probe", "tool serve"])
    }

    @Test("Every script offers every subcommand and every option of every command, for that command", arguments: CompletionShell.allCases)
    func scriptsCoverTheTree(_ shell: CompletionShell) {
        let script = shell.script(for: tree)
        for command in tree.commandTree {
            for sub in command.spec.subcommands {
                let offered: String
                switch shell {
                case .bash: offered = "'\(command.title):\(sub.name)') command='\(command.title) \(sub.name)'"
                case .zsh: offered = "'\(sub.name):\(sub.abstract)"
                case .fish: offered = "'test (__tool_command) = \\'\(command.title)\\'' -f -a '\(sub.name)'"
                }
                #expect(script.contains(offered), "\(shell) does not offer \(command.title) \(sub.name)")
            }
            for option in command.allOptions {
                let offered = shell == .fish ? "-l '\(option.name)'" : "--\(option.name)"
                #expect(script.contains(offered), "\(shell) does not offer \(command.title) --\(option.name)")
            }
        }
        // A comment says how the script was made; no code offers the maintenance requests.
        #expect(!script.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("generate") })
    }

    @Test("Options offer the choices their placeholder lists, and none for a placeholder of upper-case words")
    func choices() {
        #expect(OptionSpec.value("format", "text|json", help: "").choices == ["text", "json"])
        #expect(OptionSpec.value("media", "probe|verify|realtime", help: "").choices == ["probe", "verify", "realtime"])
        #expect(OptionSpec.value("profile", "NAME|FILE", help: "").choices == [])
        #expect(OptionSpec.value("timeout", "SECONDS", help: "").choices == [])
        #expect(OptionSpec.flag("json", help: "").choices == [])
        #expect(CompletionShell.bash.script(for: tree).contains("compgen -W 'text json'"))
        #expect(CompletionShell.zsh.script(for: tree).contains(":text|json:(text json)'"))
        #expect(CompletionShell.fish.script(for: tree).contains("-l 'format' -x -a 'text json'"))
    }

    @Test("Help text reaches each shell quoted: a quote in it cannot end the word it is in")
    func quoting() {
        #expect(CompletionShell.bash.script(for: tree).contains("'tool media probe:--format')"))
        #expect(CompletionShell.zsh.script(for: tree).contains("'--json[Print JSON; it'\\''s '\\''quoted'\\''.]'"))
        #expect(CompletionShell.zsh.script(for: tree).contains("'*--header=[A header\\: name\\: value.]:LINE:_files'"))
        #expect(CompletionShell.zsh.script(for: tree).contains("'--format=[How\\: \\[text\\] or json.]:text|json:(text json)'"))
        #expect(CompletionShell.fish.script(for: tree).contains("-d 'Print JSON; it\\'s \\'quoted\\'.'"))
    }

    @Test("The manual page has the root's name, synopsis and options, then a subsection per subcommand")
    func manualPageLayout() {
        let page = ManualPage.text(for: tree, version: "9.8.7", date: "2026-12-02")
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.contains(".TH \"TOOL\" 1 \"2026-12-02\" \"tool 9.8.7\" \"User Commands\""))
        #expect(lines.contains("tool media probe [\\-\\-json] [\\-\\-format text|json] [\\-\\-header LINE] INPUT [MORE]"))
        #expect(lines.filter { $0.hasPrefix(".SS ") } == [".SS \"tool media\"", ".SS \"tool media probe\"", ".SS \"tool serve\""])
        #expect(lines.contains("\\fB\\-\\-port\\fR \\fIPORT\\fR"))
        #expect(lines.contains("Port. (default: 7000)"))
        #expect(lines.contains("\\fB\\-\\-version\\fR"))
    }

    @Test("The manual page escapes what roff would read as its own: requests, backslashes, dashes, non-ASCII")
    func manualPageEscapes() {
        let page = ManualPage.text(for: tree, version: "9.8.7", date: "2026-12-02")
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.contains("\\&.A line that looks like a request, a back\\eslash,"))
        #expect(lines.contains("  an indented \\[u2013] table row"))
        #expect(lines.contains("Media: files\\[u2026]"))
        #expect(!page.unicodeScalars.contains { !$0.isASCII })
    }

    @Test("The root prints its version, completions and manual page; help lists --version on the root only")
    func rootRequests() throws {
        guard case .output(let version) = try ArgumentParser.parse(["--version"], root: tree) else {
            Issue.record("expected the version")
            return
        }
        #expect(version == "tool 9.8.7\n")
        guard case .output(let script) = try ArgumentParser.parse(["--generate-completion", "fish"], root: tree) else {
            Issue.record("expected a script")
            return
        }
        #expect(script == CompletionShell.fish.script(for: tree))
        guard case .output(let page) = try ArgumentParser.parse(["--generate-man"], root: tree) else {
            Issue.record("expected a page")
            return
        }
        #expect(page.hasPrefix(".\\\" The manual page of tool"))
        guard case .help(_, let rootHelp) = try ArgumentParser.parse(["--help"], root: tree),
            case .help(_, let serveHelp) = try ArgumentParser.parse(["serve", "--help"], root: tree)
        else {
            Issue.record("expected help")
            return
        }
        #expect(rootHelp.contains("  --version   Print the version.\n"))
        #expect(!serveHelp.contains("--version"))
        #expect(!rootHelp.contains("generate"))
    }

    @Test(
        "A root request that does not fit is a usage error that says what is wrong",
        arguments: [
            (["--generate-completion"], "--generate-completion needs a shell (bash, zsh, fish)"),
            (["--generate-completion", "tcsh"], "--generate-completion expects one of bash, zsh, fish, not 'tcsh'"),
            (["--generate-completion", "bash", "zsh"], "unexpected argument 'zsh'"),
            (["--generate-man", "x"], "unexpected argument 'x'"),
            (["--version", "serve"], "unexpected argument 'serve'"),
        ])
    func rootRequestErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments, root: tree) }
        do {
            _ = try ArgumentParser.parse(arguments, root: tree)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("Without a version the root takes no --version: it is an option like any unknown one")
    func noVersion() {
        var unversioned = tree
        unversioned.version = nil
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--version"], root: unversioned) }
        #expect(!CompletionShell.bash.script(for: unversioned).contains("--version"))
    }
}
