import Arguments
import Foundation
import HTTP
import Lab

/// `airlab console RECEIVERS [--receivers-file FILE]…`: the live console's page for receivers on other
/// hosts (docs/console.md). Reads the options and runs `Lab/RemoteConsole` until Ctrl-C.
enum ConsoleCommand {
    static let spec = CommandSpec(
        name: "console", abstract: "Serve the live console's page for receivers on other hosts, one page for a fleet spread over many.",
        discussion: """
            RECEIVERS and --receivers-file name the receivers as lab run's --receivers does: HOST:PORT addresses,
            HOST:FIRST-LAST port ranges and names on mDNS, comma-separated. Each receiver's GET /events is followed
            and its tile kept live, as on airlabd's own console; a receiver that cannot be reached is asked again
            every few seconds. The page is served on --listen (the line on stdout gives its address) until Ctrl-C;
            it shows no pictures (those are made by each receiver's own daemon). Its controls are read-only unless
            --console-control; with it a command goes to the receiver's own route, so a refusal is the receiver's.
            With --password the receivers' Digest challenge is answered and the page asks for the same password.
            Exit status: 0 after Ctrl-C, 2 when the command line does not fit or the address cannot be served.
            """,
        positionals: [PositionalSpec("RECEIVERS", help: "Receivers: HOST:PORT, HOST:FIRST-LAST or names, comma-separated.", isOptional: true)],
        options: [
            .value("receivers-file", "FILE", help: "Receivers, one entry a line as in RECEIVERS (# starts a comment); repeat for a file per host.", repeatable: true),
            .value("listen", "HOST:PORT", help: "Where to serve the page: a numeric address; port 0 picks a free one.", default: "127.0.0.1:0"),
            .flag("console-control", help: "Let the page's buttons send play, pause, seek, stop and PiP to the receivers."),
            ReceiverOptions.password, ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            return try await run(parsed)
        } catch {
            return error.report("console")
        }
    }

    static func run(_ parsed: ParsedCommand) async throws(CommandFailure) -> Int32 {
        func fail(_ message: String) -> CommandFailure { .usage(UsageError(commandPath: parsed.path, message: message)) }
        var entries: [ReceiverEntry] = []
        do throws(ReceiverListError) {
            if let list = parsed.positional("RECEIVERS") { entries = try ReceiverEntry.parse(list: list, source: "RECEIVERS") }
            for file in parsed.values("receivers-file") {
                let read = try ReceiverEntry.read(file: file)
                guard entries.count + read.count <= ReceiverEntry.maximumCount else {
                    throw ReceiverListError(source: file, line: nil, entry: file, reason: "the console would have more than \(ReceiverEntry.maximumCount) receivers")
                }
                entries += read
            }
        } catch {
            throw fail(error.description)
        }
        guard !entries.isEmpty else { throw fail("name the receivers: RECEIVERS (HOST:PORT,…) or --receivers-file FILE") }
        let listenText = parsed.values("listen").last ?? "127.0.0.1:0"
        guard let listen = HTTPServerConfiguration.listenAddress(listenText) else {
            throw fail("--listen expects HOST:PORT or [IPV6]:PORT with a numeric address, not '\(listenText)'")
        }
        let seconds: Double
        do throws(UsageError) {
            seconds = try parsed.number("discovery-timeout", in: ReceiverOptions.discoveryTimeoutRange) ?? 3
        } catch {
            throw .usage(error)
        }
        let selection: ReceiverSelection
        do {
            selection = try await ReceiverSelection.resolve(entries, directory: ReceiverDirectory(timeout: .milliseconds(Int(seconds * 1000))))
        } catch {
            throw .other("cannot browse mDNS for the receivers named: \(error)")
        }
        guard selection.missing.isEmpty else { throw .other("no receiver on mDNS answers to \(selection.missing.map { "'\($0)'" }.joined(separator: ", "))") }
        guard !selection.chosen.isEmpty else { throw .other("no airlab receiver was found") }

        let interruption = Interruption.onInterruptSignal()
        let console = RemoteConsole(
            receivers: selection.chosen, password: parsed.values("password").last, allowsControl: parsed.flag("console-control"),
            address: listen.host, port: listen.port,
            onChange: { change in
                switch change {
                case .connected(let receiver): Terminal.error("airlab console: following \(receiver.label)")
                case .failed(_, let error, let pause): Terminal.error("airlab console: \(error); asking again in \(Int(pause)) s")
                }
            })
        do {
            try console.start()
        } catch {
            throw .other("--listen \(listenText): \(error)")
        }
        Terminal.write("airlab console: \(selection.chosen.count) receivers on \(console.pageURL)\n")
        await interruption.wait()
        console.stop()
        return 0
    }
}
