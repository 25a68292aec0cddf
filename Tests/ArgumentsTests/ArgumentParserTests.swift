import Testing
@testable import Arguments

private let inspect = CommandSpec(
    name: "inspect", abstract: "Inspect a playlist.",
    positionals: [PositionalSpec("PLAYLIST", help: "A path or URL.")],
    options: [
        .flag("json", help: "Print JSON."),
        .value("timeout", "SECONDS", help: "Give up after this long.", default: "10"),
        .value("header", "LINE", help: "Send a header.", repeatable: true),
    ])
private let root = CommandSpec(
    name: "airlab", abstract: "The tool.",
    subcommands: [CommandSpec(name: "playlist", abstract: "Playlists.", subcommands: [inspect])])

private func run(_ arguments: [String]) throws -> ParsedCommand {
    guard case .run(let parsed) = try ArgumentParser.parse(arguments, root: root) else {
        Issue.record("expected a command to run, got help")
        throw UsageError(commandPath: [], message: "help")
    }
    return parsed
}

@Suite("Argument parsing")
struct ArgumentParserTests {
    @Test("Subcommands, positionals, flags and values are found in any order")
    func parsesAFullCommandLine() throws {
        let parsed = try run(["playlist", "inspect", "--json", "a.m3u8", "--timeout=3.5"])
        #expect(parsed.path == ["playlist", "inspect"])
        #expect(parsed.positional("PLAYLIST") == "a.m3u8")
        #expect(parsed.flag("json"))
        #expect(try parsed.value("timeout", as: Double.self) == 3.5)
    }

    @Test("A whole number from 0 is read, its default stands in when absent, and anything else names the option and the value")
    func wholeNumbers() throws {
        #expect(try run(["playlist", "inspect", "x", "--timeout", "42"]).wholeNumber("timeout", default: 1) == 42)
        #expect(try run(["playlist", "inspect", "x"]).wholeNumber("header", default: 7) == 7)
        for bad in ["-1", "1.5", "many"] {
            let parsed = try run(["playlist", "inspect", "x", "--timeout", bad])
            #expect(throws: UsageError.self) { try parsed.wholeNumber("timeout", default: 1) }
            do {
                _ = try parsed.wholeNumber("timeout", default: 1)
            } catch {
                #expect(error.message == "--timeout expects a whole number from 0, not '\(bad)'")
            }
        }
    }

    @Test("A repeatable option keeps every value in order")
    func repeatableOptionKeepsValues() throws {
        let parsed = try run(["playlist", "inspect", "x", "--header", "a", "--header", "b"])
        #expect(parsed.values("header") == ["a", "b"])
    }

    @Test("After -- everything is positional, even what looks like an option")
    func doubleDashEndsOptions() throws {
        let parsed = try run(["playlist", "inspect", "--", "--json"])
        #expect(parsed.positional("PLAYLIST") == "--json")
        #expect(!parsed.flag("json"))
    }

    @Test(
        "Command lines that do not fit are usage errors that say what is wrong",
        arguments: [
            (["playlist", "inspect"], "missing PLAYLIST"),
            (["playlist", "inspect", "a", "b"], "unexpected argument 'b'"),
            (["playlist", "inspect", "a", "--jsn"], "unknown option '--jsn'"),
            (["playlist", "inspect", "a", "--timeout"], "--timeout needs a value (SECONDS)"),
            (["playlist", "inspect", "a", "--json=yes"], "--json takes no value"),
            (["playlist", "inspect", "a", "--timeout", "1", "--timeout", "2"], "--timeout given more than once"),
            (["playlist", "nope"], "unknown command 'nope'; expected one of: inspect"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments, root: root) }
        do {
            _ = try ArgumentParser.parse(arguments, root: root)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("A value that does not convert names the option and the value")
    func badTypedValue() throws {
        let parsed = try run(["playlist", "inspect", "a", "--timeout", "soon"])
        #expect(throws: UsageError.self) { try parsed.value("timeout", as: Double.self) }
        do {
            _ = try parsed.value("timeout", as: Double.self)
        } catch {
            #expect(error.message == "--timeout expects SECONDS, not 'soon'")
        }
    }

    @Test("--help prints help generated from the command's description")
    func helpComesFromTheSpec() throws {
        guard case .help(let path, let text) = try ArgumentParser.parse(["playlist", "inspect", "--help"], root: root) else {
            Issue.record("expected help")
            return
        }
        #expect(path == ["playlist", "inspect"])
        #expect(text == """
            airlab playlist inspect: Inspect a playlist.

            USAGE: airlab playlist inspect [--json] [--timeout SECONDS] [--header LINE] PLAYLIST

            ARGUMENTS:
              PLAYLIST  A path or URL.

            OPTIONS:
              --json             Print JSON.
              --timeout SECONDS  Give up after this long. (default: 10)
              --header LINE      Send a header. (repeatable)
              -h, --help         Show this help.

            """)
    }

    @Test("A command group given no subcommand shows its help")
    func groupWithoutSubcommandShowsHelp() throws {
        guard case .help(let path, _) = try ArgumentParser.parse(["playlist"], root: root) else {
            Issue.record("expected help")
            return
        }
        #expect(path == ["playlist"])
    }
}
