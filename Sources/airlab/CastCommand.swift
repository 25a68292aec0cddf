import Arguments
import Foundation
import JSONDocument
import Lab
import Playback
import Reports
import SenderProtocol

/// `airlab cast PLAYLIST --to NAME|HOST:PORT …`: plays a playlist on one receiver and follows it.
enum CastCommand {
    /// The conventional status of a command ended by Ctrl-C.
    static let interruptedStatus: Int32 = 130

    static let spec = CommandSpec(
        name: "cast",
        abstract: "Cast a playlist to a receiver and follow it to the end, with live progress and the session's report.",
        discussion: """
            A local path (or file: URL) is served to the receiver from its folder by a small HTTP server
            that airlab runs for as long as the cast, on the address the receiver reaches this machine at
            (127.0.0.1 for a receiver on loopback); only that folder is served.
            The cast stays attached, as a phone's does: the connection that sent /play stays open, and
            Ctrl-C stops the session on the receiver. On a terminal one line shows the state, the position,
            the interstitial playing and the latency of the last switch; at the end the session's report
            is printed (--json: as JSON, the format of /sessions/ID).
            --detach starts the session and returns at once, printing its ID; it plays on without airlab
            (a local folder is served only until airlab exits, by when the receiver has loaded the playlist).
            Exit status: 0 when the session played to its end, 130 when interrupted, 2 for errors.
            """,
        positionals: [PositionalSpec("PLAYLIST", help: "An http(s) URL, or a local playlist's path.")],
        options: [
            ReceiverOptions.to,
            ReceiverOptions.airPlayProtocol,
            ReceiverOptions.credentials,
            .flag("detach", help: "Start the session and return; it plays on without airlab."),
            .flag("json", help: "Print the session's report (or, with --detach, the started session) as JSON."),
            ReceiverOptions.password,
            ReceiverOptions.discoveryTimeout,
        ] + CastOptions.all)

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            return try await run(parsed)
        } catch {
            return error.report("cast")
        }
    }

    static func run(_ parsed: ParsedCommand) async throws(CommandFailure) -> Int32 {
        let playlist = parsed.positional("PLAYLIST") ?? ""
        var order = PlayOrder(url: playlist)
        try CastOptions(parsed).apply(to: &order)
        let json = parsed.flag("json")

        // Named in messages as the receiver names itself, on the path its record says.
        let receiver = try await ReceiverOptions.client(try await ReceiverOptions.receiver(parsed), parsed).identified().receiver
        let served: ServedPlaylist
        do throws(PlaylistError) {
            served = try ServedPlaylist.prepare(playlist, for: [receiver])
        } catch {
            throw .other(error.description)
        }
        defer { served.stop() }
        order.url = served.url(for: receiver)
        let named = try ReceiverOptions.client(receiver, parsed)
        let label = receiver.label

        if parsed.flag("detach") {
            order.detached = true
            do throws(ReceiverError) {
                let session = try await named.play(order)
                print(json ? encode(session) : "\(receiver.label) plays \(playlist) in session \(session.sessionID)")
                return 0
            } catch {
                throw .receiver(error)
            }
        }

        let interactive = Terminal.standardOutputIsTerminal && !json
        let cast = AttachedCast(client: named, order: order)
        let outcome: AttachedCast.Outcome
        do throws(ReceiverError) {
            outcome = try await cast.run(
                interruption: Interruption.onInterruptSignal(),
                started: { session in
                    if !json { Terminal.write("\(label) plays \(playlist) in session \(session.sessionID); Ctrl-C stops it\n") }
                },
                progress: { progress in
                    if interactive { Terminal.redrawLine(progress.line) }
                })
        } catch {
            if interactive { Terminal.write("\n") }
            throw .receiver(error)
        }
        if interactive { Terminal.write("\n") }
        switch outcome {
        case .ended(_, let report):
            print(json ? encode(report) : SessionReportText.render(report), terminator: json ? "\n" : "")
            return 0
        case .interrupted(let session, let report):
            if let report {
                print(json ? encode(report) : SessionReportText.render(report), terminator: json ? "\n" : "")
            }
            Terminal.error("airlab cast: interrupted; \(receiver.label) was told to stop" + (session.map { " session \($0.sessionID)" } ?? ""))
            return interruptedStatus
        }
    }

    static func encode<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
