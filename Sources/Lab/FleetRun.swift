import Foundation
import Pairing
import SenderProtocol
import Sessions

/// One playlist cast to several receivers at once, each session followed to its end and its report
/// collected: the heart of `airlab lab run`.
///
/// Every receiver gets the same order (detached, same seed, same script). A receiver that cannot be
/// reached, refuses the cast, or vanishes mid-run becomes a failure in the report; the others' results
/// are kept whatever happens to it.
public struct FleetRun: Sendable {
    public var order: PlayOrder
    /// The playlist as the user named it, for the report.
    public var playlist: String
    public var seed: UInt64
    public var password: String?
    /// The AirPlay path to each receiver, and the credentials an AirPlay 2 connection verifies with.
    public var protocolChoice = ReceiverClient.ProtocolChoice.automatic
    public var pairings: SenderPairings?
    /// How often a broken event stream is reconnected before the receiver counts as gone.
    public var reconnectAttempts = 3
    /// How many sessions play at once on one host; the others wait for one of them to end.
    public var slots = HostSlots(limit: FleetRun.defaultSessionsPerHost)
    /// Given, for each session that fetched segments, its fetch trace (read from the receiver as soon
    /// as the session ends, while the receiver still keeps it) or why it could not be read.
    public var fetchTraces: (@Sendable (_ index: Int, Result<FetchTrace, ReceiverError>) -> Void)?

    /// Enough that the fleets of typical labs all play at once, few enough that a fleet of hundreds of
    /// replicas on one host is not cast to in one burst.
    public static let defaultSessionsPerHost = 32

    public init(order: PlayOrder, playlist: String, seed: UInt64, password: String? = nil) {
        self.order = order
        self.playlist = playlist
        self.seed = seed
        self.password = password
    }

    /// Casts to every receiver and waits for every session to end.
    ///
    /// - Parameters:
    ///   - url: the playlist URL each receiver fetches (a local folder is served at an address per route).
    ///   - update: the progress of receiver `index`, as it changes; called from many tasks.
    public func run(
        on receivers: [Receiver], url: @escaping @Sendable (Receiver) -> String,
        update: @escaping @Sendable (_ index: Int, SessionProgress) -> Void = { _, _ in }
    ) async -> SimulationReport {
        // The child results are a struct: Swift 6.3's release builds corrupt tuple results of task groups.
        let results = await withTaskGroup(of: Outcome.self) { group in
            for (index, receiver) in receivers.enumerated() {
                group.addTask {
                    let host = receiver.address.host
                    var queued = SessionProgress()
                    queued.state = "queued"
                    update(index, queued)
                    guard await slots.acquire(host) else { return Outcome(index: index, result: nil) }
                    var trace: (@Sendable (Result<FetchTrace, ReceiverError>) -> Void)?
                    if let keep = fetchTraces { trace = { keep(index, $0) } }
                    let result = await self.follow(receiver, url: url(receiver), trace: trace) { update(index, $0) }
                    await slots.release(host)
                    return Outcome(index: index, result: result)
                }
            }
            var results: [Int: Result<SessionReport, ReceiverError>] = [:]
            for await outcome in group { results[outcome.index] = outcome.result }
            return results
        }
        var report = SimulationReport(playlist: playlist, seed: seed, sessions: [], failures: [])
        for (index, receiver) in receivers.enumerated() {
            switch results[index] {
            case .success(let session)?: report.sessions.append(session)
            case .failure(let error)?: report.failures.append(.init(profile: Self.reportName(of: receiver), reason: error.description))
            case nil: report.failures.append(.init(profile: Self.reportName(of: receiver), reason: "\(receiver.label): the run was interrupted"))
            }
        }
        report.sessions = Self.distinguishingLanes(report.sessions, receivers: receivers, results: results)
        // The receivers ran the profiles, so their sessions' summaries are what the run used.
        report.profiles = SimulationReport.profiles(of: report.sessions)
        return report
    }

    /// What following receiver `index` came to; nil when the run was interrupted before its turn.
    struct Outcome: Sendable {
        var index: Int
        var result: Result<SessionReport, ReceiverError>?
    }

    /// One receiver: subscribe, cast, follow the session's events to `ended`, read its report.
    func follow(
        _ receiver: Receiver, url: String, trace: (@Sendable (Result<FetchTrace, ReceiverError>) -> Void)? = nil,
        update: @Sendable (SessionProgress) -> Void
    ) async -> Result<SessionReport, ReceiverError> {
        var client = ReceiverClient(receiver, password: password)
        client.protocolChoice = protocolChoice
        client.pairings = pairings
        var progress = SessionProgress()
        update(progress)
        func fail(_ error: ReceiverError) -> Result<SessionReport, ReceiverError> {
            progress.failure = error.reason
            update(progress)
            return .failure(error)
        }
        var feed: ReceiverEventFeed
        let started: StartedSession
        do throws(ReceiverError) {
            // Subscribed first, so that no event of the session is missed however fast it plays.
            feed = try await client.subscribe()
            var order = order
            order.url = url
            order.detached = true
            order.seed = seed
            progress.state = "loading"
            update(progress)
            do throws(ReceiverError) {
                started = try await client.play(order)
            } catch {
                feed.close()
                throw error
            }
        } catch {
            return fail(error)
        }
        progress.sessionID = started.sessionID
        update(progress)

        var attempts = 0
        while true {
            let outcome = await Self.watch(feed, session: started.sessionID, progress: &progress, update: update)
            feed.close()
            if Task.isCancelled {
                // Interrupted (Ctrl-C): a detached session would play on without its sender.
                try? await client.stop()
                return fail(client.failure(.interrupted))
            }
            if case .ended = outcome { break }
            attempts += 1
            do throws(ReceiverError) {
                // The stream broke: the receiver may still be there, and the session may have ended meanwhile.
                if try await Self.hasEnded(started.sessionID, on: client) { break }
                guard attempts <= reconnectAttempts else { throw client.failure(.vanished(outcome.detail)) }
                feed = try await client.subscribe()
                if try await Self.hasEnded(started.sessionID, on: client) {
                    feed.close()
                    break
                }
            } catch {
                if case .vanished = error.problem { return fail(error) }
                return fail(client.failure(.vanished("\(outcome.detail); then: \(error.reason)")))
            }
        }
        do throws(ReceiverError) {
            let report = try await client.report(ofSession: started.sessionID)
            if let trace, report.media != nil {
                do throws(ReceiverError) {
                    trace(.success(try await client.fetchTrace(ofSession: started.sessionID)))
                } catch {
                    trace(.failure(error))
                }
            }
            progress.state = "ended"
            progress.endReason = report.endReason ?? progress.endReason
            update(progress)
            return .success(report)
        } catch {
            return fail(error)
        }
    }

    enum StreamOutcome {
        case ended
        case closed
        case broken(ReceiverError)

        var detail: String {
            switch self {
            case .ended: "the session ended"
            case .closed: "the receiver closed its event stream"
            case .broken(let error): error.reason
            }
        }
    }

    /// Applies the session's events until its `ended`, the end of the stream, or a failure.
    static func watch(
        _ feed: ReceiverEventFeed, session: String, progress: inout SessionProgress, update: @Sendable (SessionProgress) -> Void
    ) async -> StreamOutcome {
        do {
            for try await event in feed.events where event.session == session {
                progress.apply(event)
                update(progress)
                if event.knownKind == .ended { return .ended }
            }
            return .closed
        } catch let error as ReceiverError {
            return .broken(error)
        } catch {
            return .broken(ReceiverError(receiver: feed.receiver.label, problem: .connectionLost("\(error)")))
        }
    }

    static func hasEnded(_ session: String, on client: ReceiverClient) async throws(ReceiverError) -> Bool {
        guard let summary = try await client.sessions().first(where: { $0.id == session }) else {
            throw client.failure(.notFound("session \(session) is not in /sessions any more"))
        }
        return !summary.active
    }

    /// The name a receiver goes by in reports: its profile, as in `airlab simulate`, else its name.
    static func reportName(of receiver: Receiver) -> String {
        receiver.profile ?? receiver.name ?? receiver.address.description
    }

    /// The file a receiver's fetch trace goes to in a lab's report folder: its place in the fleet, then
    /// its name (or address), in characters every file system takes: `007-Living-Room.json` for
    /// "Living Room" seventh of a hundred.
    public static func fetchTraceFileName(index: Int, of count: Int, receiver: Receiver) -> String {
        let width = String(max(1, count)).count
        let number = String(index + 1)
        let kept = (receiver.name ?? receiver.address.description).unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._".unicodeScalars.contains(scalar)) ? Character(scalar) : " "
        }
        let name = String(kept).split(separator: " ").joined(separator: "-").prefix(80)
        return String(repeating: "0", count: max(0, width - number.count)) + number + "-" + name + ".json"
    }

    /// Reports keep one lane per profile; two receivers of the same profile get their names added,
    /// so that neither hides the other.
    static func distinguishingLanes(
        _ sessions: [SessionReport], receivers: [Receiver], results: [Int: Result<SessionReport, ReceiverError>]
    ) -> [SessionReport] {
        let counts = Dictionary(sessions.map { ($0.profile, 1) }, uniquingKeysWith: +)
        guard counts.values.contains(where: { $0 > 1 }) else { return sessions }
        let names = displayNames(of: receivers)
        var renamed: [SessionReport] = []
        for (index, receiver) in receivers.enumerated() {
            guard case .success(var session)? = results[index] else { continue }
            if counts[session.profile, default: 0] > 1 {
                session.profile += " @ " + (receiver.name == nil ? receiver.address.description : names[index])
            }
            renamed.append(session)
        }
        return renamed
    }

    /// What each receiver is called in progress lines and lanes: its name, or its address without
    /// one. Fleets on several hosts repeat names (every host's "Apple TV 4K"): a name two receivers
    /// share gets the address added, so that no line or lane stands for two receivers.
    public static func displayNames(of receivers: [Receiver]) -> [String] {
        let names = receivers.map { $0.name ?? reportName(of: $0) }
        let counts = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +)
        return zip(names, receivers).map { name, receiver in
            counts[name, default: 0] > 1 ? "\(name) (\(receiver.address))" : name
        }
    }
}
