import Coordination
import Foundation
import Playback
import SenderProtocol
import Synchronization
import Transport

/// A group played by real receivers (`airlab lab run --group`): the first participant's receiver
/// hosts the group, every participant's receiver joins it over the JSON `/play` extension, and the
/// report is built from the host's event stream and each participant's `/playback-info`, by the same
/// `GroupReportBuilder` as a simulated group's.
///
/// The group starts once every participant has joined (a coordinated start), so a slow cast does not
/// leave the others playing alone.
public struct GroupLabRun: Sendable {
    public struct Participant: Sendable {
        public var name: String
        public var receiver: Receiver
        /// The playlist as this participant's receiver fetches it.
        public var url: String
        public var profile: String
        public var policy: GroupPolicy?
        public var stitched: String?
        public var adFree: Bool

        public init(name: String, receiver: Receiver, url: String, profile: String, policy: GroupPolicy?, stitched: String?, adFree: Bool) {
            self.name = name
            self.receiver = receiver
            self.url = url
            self.profile = profile
            self.policy = policy
            self.stitched = stitched
            self.adFree = adFree
        }
    }

    public var contentID: String
    public var policy: GroupPolicy
    public var participants: [Participant]
    public var seed: UInt64
    public var password: String?
    public var syncTolerance = 0.5
    /// Real seconds between two reads of every participant's `/playback-info`.
    public var pollInterval = 0.05

    public init(contentID: String, policy: GroupPolicy, participants: [Participant], seed: UInt64, password: String? = nil) {
        self.contentID = contentID
        self.policy = policy
        self.participants = participants
        self.seed = seed
        self.password = password
    }

    /// One read of a participant's `/playback-info`.
    struct Sample {
        var groupTime: Double
        var status: PlayerStatus
        var error: Double?
        var corrections: Int
    }

    /// Plays the group to its end (every participant has left) and reports it; a receiver that cannot
    /// be used, or a participant the group refuses, ends the run with that error.
    public func run() async throws(ReceiverError) -> GroupReport {
        guard let first = participants.first else { throw ReceiverError(receiver: "the group", problem: .badRequest("it has no participants")) }
        let host = ReceiverClient(first.receiver, password: password)
        let group = try await host.createGroup(GroupCreation(contentID: contentID, policy: policy, startWith: participants.count))
        let feed = try await GroupEventFeed.connect(host, group: group.id)
        defer { feed.close() }
        let clients = participants.map { ReceiverClient($0.receiver, password: password) }
        var started: [ReceiverClient] = []
        do throws(ReceiverError) {
            for (participant, client) in zip(participants, clients) {
                var order = PlayOrder(url: participant.url)
                order.detached = true
                order.seed = seed
                var join = GroupJoin(url: host.groupURL(group.id), participant: participant.name)
                join.contentID = contentID
                join.stitched = participant.stitched
                join.policy = participant.policy
                join.adFree = participant.adFree ? true : nil
                order.group = join
                _ = try await client.play(order)
                started.append(client)
            }
        } catch {
            for client in started { try? await client.stop() }
            try? await host.deleteGroup(group.id)
            throw error
        }

        var samples = [[Sample]](repeating: [], count: participants.count)
        let names = Set(participants.map(\.name))
        // Until every participant has left, or none plays any more (a leave the feed missed).
        var quietReads = 0
        while !feed.haveLeft(names), quietReads < 3, !Task.isCancelled {
            var grouped = 0
            for (index, client) in clients.enumerated() {
                guard let info = try? await client.playbackInfo(), let sync = info.groupSync else { continue }
                grouped += 1
                samples[index].append(Sample(
                    groupTime: sync.groupTime, status: info.status, error: sync.error,
                    corrections: sync.corrections))
            }
            quietReads = grouped == 0 ? quietReads + 1 : 0
            // Pacing the reads, not waiting for something: the loop ends on the feed's events.
            try? await Task.sleep(for: .milliseconds(Int(pollInterval * 1000)))
        }
        if Task.isCancelled { for client in clients { try? await client.stop() } }
        let final = try? await host.group(group.id)
        try? await host.deleteGroup(group.id)
        return report(events: feed.events, summary: final, samples: samples)
    }

    func report(events messages: [GroupStreamMessage], summary: GroupSummary?, samples: [[Sample]]) -> GroupReport {
        let events = messages.compactMap { message in message.event.map { (at: message.at, event: $0) } }
        let now = max(events.last?.at ?? 0, samples.compactMap { $0.last?.groupTime }.max() ?? 0)
        let recorded = participants.enumerated().map { index, participant in
            let member = summary?.participants.first { $0.name == participant.name }
            return GroupReportBuilder.Recorded(
                name: participant.name, profile: participant.profile, policy: member?.policy ?? participant.policy ?? policy,
                ads: member?.ads ?? .adFree, suspensions: Self.suspensions(of: participant.name, in: events),
                statuses: Self.statuses(samples[index]), corrections: samples[index].last?.corrections ?? 0,
                syncPieces: Self.pieces(samples[index]))
        }
        return GroupReportBuilder(
            contentID: contentID, seed: seed, events: events, participants: recorded, syncTolerance: syncTolerance, errors: [], now: now
        ).report
    }

    /// The participant's suspensions, from the coordinator's suspended and resumed events.
    static func suspensions(of name: String, in events: [(at: Double, event: GroupEvent)]) -> [GroupReport.Suspension] {
        var list: [GroupReport.Suspension] = []
        for (at, event) in events {
            switch event {
            case .suspended(let who, let reason, _, let primary) where who == name:
                list.append(GroupReport.Suspension(reason: reason, start: at, end: nil, primary: primary, resumePrimary: nil))
            case .resumed(let who, let reason, _, let primary) where who == name:
                if let open = list.lastIndex(where: { $0.reason == reason && $0.end == nil }) {
                    list[open].end = at
                    list[open].resumePrimary = primary
                }
            case .left(let who, _) where who == name:
                for open in list.indices where list[open].end == nil { list[open].end = at }
            default: break
            }
        }
        return list
    }

    /// The `timeControlStatus` changes the reads saw.
    static func statuses(_ samples: [Sample]) -> [GroupReport.StatusChange] {
        var changes: [GroupReport.StatusChange] = []
        for sample in samples {
            let change = GroupReport.StatusChange(at: sample.groupTime, sample.status)
            guard changes.last.map({ $0.status != change.status || $0.reason != change.reason }) ?? true else { continue }
            changes.append(change)
        }
        return changes
    }

    /// e(t) between consecutive reads that both measured it, taken as linear in between.
    static func pieces(_ samples: [Sample]) -> [GroupReport.SyncPiece] {
        zip(samples, samples.dropFirst()).compactMap { earlier, later in
            guard let from = earlier.error, let to = later.error, later.groupTime > earlier.groupTime else { return nil }
            return GroupReport.SyncPiece(start: earlier.groupTime, end: later.groupTime, from: from, to: to)
        }
    }
}

/// The host's event stream of one group, read on the transfer loop and kept in order.
final class GroupEventFeed: Sendable {
    private let source: EventSource
    private let received = Mutex<[GroupStreamMessage]>([])

    private init(source: EventSource) {
        self.source = source
    }

    static func connect(_ client: ReceiverClient, group: String) async throws(ReceiverError) -> GroupEventFeed {
        let target = GroupPath.events(group, participant: nil).target
        var request = client.request(.get, target, wait: client.timeout)
        // The host sends no heartbeats on a group's stream: it is silent between events for as long as
        // the group is, and only the run's end closes it.
        request.totalTimeout = nil
        request.lowSpeed = nil
        let source: EventSource
        switch await EventSource.open(request) {
        case .open(let opened) where opened.head.status == 200: source = opened
        case .open(let opened):
            opened.close()
            throw client.failure(.unexpectedAnswer(status: opened.head.status, message: "GET \(target)"))
        case .refused(let status, _, _): throw client.failure(.unexpectedAnswer(status: status, message: "GET \(target)"))
        case .failed(let error): throw client.failure(.connectionLost("GET \(target): \(error)"))
        }
        let feed = GroupEventFeed(source: source)
        let events = source.events
        Task { [feed] in
            // A stream that breaks only ends the record: the run ends on what it has.
            var iterator = events.makeAsyncIterator()
            while let event = try? await iterator.next() {
                guard event.event != "group", event.event != "message",
                    let message = try? WireJSON.decoder.decode(GroupStreamMessage.self, from: Data(event.data.utf8))
                else { continue }
                feed.received.withLock { $0.append(message) }
            }
        }
        return feed
    }

    var events: [GroupStreamMessage] { received.withLock { $0 } }

    /// Whether every one of `names` has left the group.
    func haveLeft(_ names: Set<String>) -> Bool {
        let left = received.withLock { messages in Set(messages.filter { $0.kind == "left" }.compactMap(\.participant)) }
        return names.isSubset(of: left)
    }

    func close() { source.close() }
}
