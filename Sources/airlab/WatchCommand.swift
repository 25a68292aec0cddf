import Arguments
import Foundation
import HLS
import Lab
import NumberText
import SenderProtocol

/// `airlab watch --to … [--json] [--until-end]`: the receiver's events as they happen.
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch", abstract: "Print the receiver's playback events as they happen (GET /events).",
        discussion: """
            One line per event: session time, kind, the interstitial and the position, and why (a refusal's
            restriction, an end's reason). --json prints each event's JSON on a line of its own. Runs until
            Ctrl-C, or with --until-end until a session ends. Exit status: 0, or 2 when the receiver cannot
            be reached or goes away.
            """,
        options: [
            ReceiverOptions.to, .flag("json", help: "One JSON object per line, as the receiver sent it."),
            .flag("until-end", help: "Return once a session ends."), ReceiverOptions.password, ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            let receiver = try await ReceiverOptions.receiver(parsed)
            let client = try ReceiverOptions.client(receiver, parsed)
            let feed: ReceiverEventFeed
            do throws(ReceiverError) {
                feed = try await client.subscribe()
            } catch {
                throw .receiver(error)
            }
            let json = parsed.flag("json")
            let untilEnd = parsed.flag("until-end")
            let interruption = Interruption.onInterruptSignal()
            let events = feed.events
            let failure = await withTaskGroup(of: ReceiverError?.self) { group -> ReceiverError? in
                group.addTask {
                    do {
                        for try await event in events {
                            Terminal.write((json ? event.json : line(for: event)) + "\n")
                            if untilEnd && event.knownKind == .ended { return nil }
                        }
                        return Task.isCancelled ? nil : client.failure(.connectionLost("the receiver closed its event stream"))
                    } catch let error as ReceiverError {
                        return error
                    } catch {
                        return client.failure(.connectionLost("\(error)"))
                    }
                }
                group.addTask {
                    await interruption.wait()
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                feed.close()
                return first
            }
            if let failure { throw .receiver(failure) }
            return 0
        } catch {
            return error.report("watch")
        }
    }

    /// `12.345 s  session 3F2A  interstitial-started  'ad-1'  at 4.0 s  (reason)`; an event of a kind
    /// or shape this version cannot read shows its name only.
    static func line(for sessionEvent: SessionEvent) -> String {
        var parts: [String] = []
        parts.append(sessionEvent.event.map { String(format: "%8.3f s", $0.time) } ?? "       - s")
        if let session = sessionEvent.session { parts.append("session \(session)") }
        parts.append(sessionEvent.kind.name)
        guard let event = sessionEvent.event else { return parts.joined(separator: "  ") }
        if event.kind == .stateChanged { parts.append(event.state.rawValue) }
        if let eventID = event.eventID { parts.append("'\(eventID)'" + (event.assetIndex.map { " asset \($0 + 1)" } ?? "")) }
        parts.append(String(format: "at %.1f s", event.position))
        if event.kind == .rateChanged { parts.append("rate \(event.rate.plainText)") }
        if let transition = event.transition { parts.append("switch \(Int(roundingSaturated: transition.totalMilliseconds)) ms") }
        if let command = event.command { parts.append("command \(command)") }
        if let restriction = event.restriction { parts.append("restriction \(restriction.rawValue)") }
        if !event.reason.isEmpty { parts.append("(\(event.reason))") }
        return parts.joined(separator: "  ")
    }
}
