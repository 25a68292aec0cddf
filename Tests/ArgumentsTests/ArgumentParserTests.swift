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
                #expect(error.message == "--timeout must be a whole number from 0, not '\(bad)'")
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

    private enum Mode: String, CaseIterable { case probe, verify, realtime }

    @Test("Numbers and choices are refused in one form a kind: not a number, out of its range, not one of the choices")
    func rangesAndChoices() throws {
        func message(_ value: String, _ read: (ParsedCommand) throws -> Void) throws -> String? {
            let parsed = try run(["playlist", "inspect", "a", "--timeout", value])
            do {
                try read(parsed)
                return nil
            } catch let error as UsageError {
                return error.message
            }
        }
        #expect(try run(["playlist", "inspect", "a", "--timeout", "3.5"]).number("timeout", in: .seconds(1...86_400)) == 3.5)
        #expect(try run(["playlist", "inspect", "a"]).number("timeout", in: .seconds(1...86_400)) == nil)
        #expect(try message("soon") { _ = try $0.number("timeout", in: .seconds(1...86_400)) } == "--timeout expects SECONDS, not 'soon'")
        #expect(try message("inf") { _ = try $0.number("timeout", in: .positive()) } == "--timeout expects SECONDS, not 'inf'")
        #expect(try message("0") { _ = try $0.number("timeout", in: .seconds(1...86_400)) } == "--timeout must be from 1 to 86400 seconds, not '0'")
        #expect(try message("0") { _ = try $0.number("timeout", in: .positiveSeconds(upTo: 600)) } == "--timeout must be more than 0 and at most 600 seconds, not '0'")
        #expect(try message("-1") { _ = try $0.number("timeout", in: NumberRange(.atLeast(0), unit: "seconds")) } == "--timeout must be 0 or more seconds, not '-1'")
        #expect(try message("-1") { _ = try $0.number("timeout", in: .positive(unit: "milliseconds")) } == "--timeout must be more than 0 milliseconds, not '-1'")
        #expect(try message("65") { _ = try $0.wholeNumber("timeout", in: 1...64) } == "--timeout must be a whole number from 1 to 64, not '65'")
        #expect(try message("1.5") { _ = try $0.wholeNumber("timeout", in: 0...Int.max) } == "--timeout must be a whole number from 0, not '1.5'")
        #expect(try run(["playlist", "inspect", "a", "--timeout", "verify"]).choice("timeout", as: Mode.self) == .verify)
        #expect(try message("fast") { _ = try $0.choice("timeout", as: Mode.self) } == "--timeout must be probe, verify or realtime, not 'fast'")
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
