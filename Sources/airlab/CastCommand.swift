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
            .value("start", "SECONDS", help: "Start at this primary position (PRE interstitials still play first)."),
            .value("events", "FILE", help: "Client interstitial events (JSON in AVPlayerInterstitialEvent's shape): overrides and additions."),
            .flag("no-interstitials", help: "Ignore the playlist's interstitials (an ad-free plan)."),
            .value("language", "CODE", help: "The audio language the sender prefers."),
            .value("sdk-ads", "FILE", help: "Ad breaks the sender's ad SDK starts itself (JSON: {\"breaks\": [{\"time\": 600, \"ads\": [{\"duration\": 30}]}]})."),
            .value("sdk-ad-in-pip", "skip|defer|attempt", help: "What the SDK does with a break due in picture in picture.", default: "skip"),
            .flag("detach", help: "Start the session and return; it plays on without airlab."),
            .flag("json", help: "Print the session's report (or, with --detach, the started session) as JSON."),
            ReceiverOptions.password,
            ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(path: ["cast"]) { parsed in
        do throws(CommandFailure) {
            return try await run(parsed)
        } catch {
            return error.report("cast")
        }
    }

    static func run(_ parsed: ParsedCommand) async throws(CommandFailure) -> Int32 {
        let playlist = parsed.positional("PLAYLIST") ?? ""
        var order = PlayOrder(url: playlist)
        do throws(UsageError) {
            order.start = try parsed.value("start", as: Double.self)
            if let start = order.start, start < 0 { throw UsageError(commandPath: parsed.path, message: "--start must be 0 or more") }
        } catch {
            throw .usage(error)
        }
        order.interstitialEvents = try readEvents(parsed.values("events").last)
        order.automaticallyHandlesInterstitialEvents = !parsed.flag("no-interstitials")
        order.audioLanguage = parsed.values("language").last
        order.sdkAdBreaks = try readSDKAds(parsed.values("sdk-ads").last)
        order.sdkAdInPictureInPicture = try sdkAdPolicy(parsed)
        let json = parsed.flag("json")

        var receiver = try await ReceiverOptions.receiver(parsed)
        let client = ReceiverOptions.client(receiver, parsed)
        if receiver.name == nil, let info = try? await client.serverInfo() {
            // Named in messages as the receiver names itself.
            receiver.name = info.name
            receiver.profile = info.profile
        }
        let served: ServedPlaylist
        do throws(PlaylistError) {
            served = try ServedPlaylist.prepare(playlist, for: [receiver])
        } catch {
            throw .other(error.description)
        }
        defer { served.stop() }
        order.url = served.url(for: receiver)
        let named = ReceiverOptions.client(receiver, parsed)
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

    /// The events file, checked here so that a mistake is reported against the file, not by the receiver.
    static func readEvents(_ path: String?) throws(CommandFailure) -> JSONValue? {
        try readChecked(path) { data throws(ClientEvents.Failure) in _ = try ClientEvents(parsing: data) }
    }

    /// The SDK ad breaks file, checked here for the same reason.
    static func readSDKAds(_ path: String?) throws(CommandFailure) -> JSONValue? {
        try readChecked(path) { data throws(SDKAdSchedule.Failure) in _ = try SDKAdSchedule(parsing: data) }
    }

    /// A JSON file the order carries as read, once `check` has accepted it; nil without a path.
    private static func readChecked<Failure: Error>(
        _ path: String?, check: (Data) throws(Failure) -> Void
    ) throws(CommandFailure) -> JSONValue? {
        guard let path else { return nil }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw .other("\(path): cannot be read (no such file or unreadable)")
        }
        do throws(Failure) {
            try check(data)
        } catch {
            throw .other("\(path): \(error)")
        }
        // A checked document is valid JSON: the order sends it as read.
        return JSONValue(document: data)
    }

    /// `--sdk-ad-in-pip`, checked; nil for the default (skip), which the order leaves out.
    static func sdkAdPolicy(_ parsed: ParsedCommand) throws(CommandFailure) -> String? {
        let policy = parsed.values("sdk-ad-in-pip").last ?? SDKAdInPictureInPicture.skip.rawValue
        guard SDKAdInPictureInPicture(rawValue: policy) != nil else {
            throw .usage(UsageError(commandPath: parsed.path, message: "--sdk-ad-in-pip must be skip, defer or attempt, not '\(policy)'"))
        }
        return policy == SDKAdInPictureInPicture.skip.rawValue ? nil : policy
    }

    static func encode<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
