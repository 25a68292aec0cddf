import Console
import ConsoleStream
import Foundation
import HTTP
import Playback
import SenderProtocol
import Synchronization

/// `airlab console RECEIVER…`: the console's page (docs/console.md) for receivers on other hosts, so
/// that one page shows a fleet spread over many.
///
/// Each receiver's `GET /events` is followed over HTTP (`ReceiverEventFeed`, libcurl) and its typed
/// events go to the same board and reducer `airlabd`'s own console uses (`ConsoleBroadcast`). A
/// session's break rules are asked of the receiver once, when its first event arrives. A feed that
/// fails is opened again, after a pause that grows to `retryLimit`, and never stops the others.
///
/// While a page watches, each receiver with a session is asked for `/playback-info` once a
/// `sampleInterval`, for the figures that move without events: the buffer ahead (its
/// `loadedTimeRanges` past the position) and a group's sync error. It makes no pictures: a tile's is
/// made where the segments are, by the receiver's own daemon (`GET /picture`), and passed through.
public final class RemoteConsole: Sendable {
    /// What happened to one receiver's feed, for the command to print.
    public enum FeedChange: Sendable {
        case connected(Receiver)
        case failed(Receiver, ReceiverError, retryIn: Double)
    }

    public let broadcast: ConsoleBroadcast
    let clients: [ReceiverClient]
    private let server: HTTPServer
    private let following = Mutex<[Task<Void, Never>]>([])
    /// Each receiver's session as its events last named it, for the samples.
    private let sessions = Mutex<[Int: String]>([:])
    private let onChange: @Sendable (FeedChange) -> Void

    /// The longest pause before a failed feed is opened again.
    public static let retryLimit = 10.0
    /// At most one question for a session's rules a second per receiver: a receiver whose every event
    /// names a new session (a broken or hostile one) costs one request a second, not one an event.
    static let rulesInterval = 1.0
    /// Pages are few; a handful of connections is plenty.
    static let connectionLimit = 64
    /// How often the figures that move without events are asked for while a page watches.
    static let sampleInterval = Duration.seconds(1)
    /// Receivers asked at once for a sample.
    static let samplesAtOnce = 16

    /// - Parameters:
    ///   - receivers: in the order the page numbers them.
    ///   - password: the receivers' password: answered to their Digest challenge, and asked of the
    ///     page's visitors too, since the page shows and drives them.
    ///   - allowsControl: the page's controls reach the receivers (`--console-control`); without it
    ///     they answer 403.
    ///   - address: a numeric address to serve on; `port` 0 picks a free port.
    public init(
        receivers: [Receiver], password: String?, allowsControl: Bool, address: String, port: UInt16,
        onChange: @escaping @Sendable (FeedChange) -> Void = { _ in }
    ) {
        clients = receivers.map { ReceiverClient($0, password: password) }
        let tiles = receivers.map { receiver in
            // A receiver's clock moves at its own scale between events, as its /server-info says.
            (name: receiver.name ?? receiver.address.description, profile: receiver.profile ?? "?", timeScale: receiver.timeScale ?? 1.0)
        }
        let broadcast = ConsoleBroadcast(receivers: tiles, allowsControl: allowsControl, showsPictures: true)
        self.broadcast = broadcast
        self.onChange = onChange
        var configuration = HTTPServerConfiguration(address: address, port: port, connectionLimit: Self.connectionLimit)
        configuration.authentication = password.map { DigestAuthentication(password: $0) }
        server = HTTPServer(configuration: configuration, responder: RemoteConsoleResponder(broadcast: broadcast, clients: clients))
        broadcast.whenWatched { [weak self] in self?.startSampling() }
    }

    /// Serves the page and starts following every receiver; throws when the address cannot be served.
    public func start() throws {
        try server.start()
        let tasks = clients.indices.map { index in
            Task { [self] in await follow(index) }
        }
        following.withLock { $0 = tasks }
    }

    /// The port served, once started.
    public var port: UInt16 { server.port }

    /// The page's address, once started.
    public var pageURL: String {
        let host = server.configuration.address
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/console"
    }

    /// Stops following, ends every page's stream and stops serving.
    public func stop() {
        following.withLock { tasks in
            tasks.forEach { $0.cancel() }
            tasks.removeAll()
        }
        broadcast.stop()
        server.stop()
    }

    /// Follows receiver `index`'s events until cancelled, opening its feed again when it fails.
    private func follow(_ index: Int) async {
        let client = clients[index]
        var rules = SessionRules(client: client)
        var pause = 1.0
        while !Task.isCancelled {
            do {
                let feed = try await client.subscribe()
                onChange(.connected(client.receiver))
                pause = 1.0
                do {
                    for try await event in feed.events {
                        guard let playback = event.event else { continue }
                        let session = await rules.session(event.session, revealedBy: playback)
                        self.sessions.withLock { $0[index] = session?.id }
                        broadcast.record([playback], of: session, receiver: index)
                    }
                    feed.close()
                    if Task.isCancelled { return }
                    throw client.failure(.connectionLost("the receiver closed its event stream"))
                } catch {
                    feed.close()
                    throw error
                }
            } catch {
                if Task.isCancelled { return }
                let failure = (error as? ReceiverError) ?? client.failure(.connectionLost("\(error)"))
                onChange(.failed(client.receiver, failure, retryIn: pause))
                // A pause before asking again, not a wait for a state: a receiver that is down is asked
                // at most once every `retryLimit` seconds.
                try? await Task.sleep(for: .seconds(pause))
                pause = min(pause * 2, Self.retryLimit)
            }
        }
    }

    /// Samples every receiver with a session, then again after `sampleInterval`, for as long as a page
    /// watches (`keepsSampling`); the first page to join after that starts it again.
    private func startSampling() {
        Task { [weak self] in
            while let self {
                await self.sampleOnce()
                guard self.broadcast.keepsSampling() else { return }
                // The pace of the samples, not a wait for a state.
                try? await Task.sleep(for: Self.sampleInterval)
            }
        }
    }

    /// Asks each receiver with a session for `/playback-info`, `samplesAtOnce` at a time; a receiver
    /// that does not answer keeps its last figures.
    private func sampleOnce() async {
        let current = sessions.withLock { $0 }.sorted { $0.key < $1.key }
        var samples: [(index: Int, session: String, sample: ConsoleTile.Sample)] = []
        await withTaskGroup(of: (Int, String, ConsoleTile.Sample)?.self) { group in
            var next = current.makeIterator()
            func add() -> Bool {
                guard let (index, session) = next.next() else { return false }
                let client = clients[index]
                group.addTask {
                    guard let info = try? await client.playbackInfo() else { return nil }
                    return (index, session, Self.sample(of: info))
                }
                return true
            }
            for _ in 0..<Self.samplesAtOnce where add() {}
            for await result in group {
                if let result { samples.append((result.0, result.1, result.2)) }
                _ = add()
            }
        }
        broadcast.record(samples)
    }

    /// What a receiver's `/playback-info` says of the figures a tile shows between events.
    public static func sample(of info: PlaybackInfo) -> ConsoleTile.Sample {
        let ahead = info.loaded.flatMap { loaded in loaded.contains(info.position) ? loaded.upperBound - info.position : nil }
        return ConsoleTile.Sample(bufferAhead: ahead, group: info.groupID, groupSyncError: info.groupSync?.error)
    }

    /// The session a receiver's events belong to, with the rules of its breaks (asked of the receiver
    /// until it answers, once per session) and primary's duration (asked of `/scrub` while primary plays, since in a break
    /// it answers the ad's). Each question goes out at most once a `rulesInterval`.
    struct SessionRules {
        let client: ReceiverClient
        private var current: ConsoleSession?
        private var hasRules = false
        private var rulesAskedAt: ContinuousClock.Instant?
        private var durationAskedAt: ContinuousClock.Instant?

        init(client: ReceiverClient) {
            self.client = client
        }

        mutating func session(_ id: String?, revealedBy event: PlaybackEvent) async -> ConsoleSession? {
            guard let id else { return nil }
            if current?.id != id {
                current = ConsoleSession(id: id, duration: nil, breaks: BreakRules())
                hasRules = false
            }
            // While a session loads, the receiver has no schedule to tell (it answers none): asked from
            // its first event past loading, before any break can start.
            if !hasRules, event.state != .loading, Self.due(&rulesAskedAt), let schedule = try? await client.schedule() {
                current?.breaks = BreakRules(schedule: schedule)
                hasRules = true
            }
            if current?.duration == nil, event.state == .playingPrimary, Self.due(&durationAskedAt),
                let duration = try? await client.progress().duration, duration.isFinite, duration > 0, duration < 1e9
            {
                current?.duration = duration
            }
            return current
        }

        /// True, and now noted, when the last question of its kind was `rulesInterval` or more ago.
        private static func due(_ askedAt: inout ContinuousClock.Instant?) -> Bool {
            let now = ContinuousClock.now
            if let askedAt, now - askedAt < .seconds(RemoteConsole.rulesInterval) { return false }
            askedAt = now
            return true
        }
    }
}
