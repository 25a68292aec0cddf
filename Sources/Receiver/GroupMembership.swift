import Casting
import Coordination
import Foundation
import Playback
import SenderProtocol
import Sessions
import Synchronization
import Transport

/// A session's place in a group hosted on any receiver, this one or another (docs/groups.md,
/// receiver-resident participation): the `GroupFollower` that reads the session's engine, the
/// group clock's offset from this receiver's, the stream of commands from the host and the queue of
/// inputs to it.
///
/// Commands are applied to the session with this membership's lock released, since applying one
/// publishes the session's events back here. Inputs leave in the order the follower made them.
final class GroupMembership: Sendable {
    let request: GroupMembershipRequest
    /// Group time = this receiver's session clock + offset.
    let offset: Double
    /// The receiver's session clock. (An engine's own time counts from its session's start, so the
    /// group time of now is read from the clock, not from the engine.)
    private let clock: any PlaybackClock
    /// Half the best round trip of the clock exchange: how far off the offset may be.
    let clockBound: Double

    private struct State {
        var follower: GroupFollower
        var session: PlaybackSession?
        /// Commands that came before the session was attached.
        var early: [GroupCommand] = []
        var leaving = false
        /// The group was paused when this participant joined: its sender's `/play` starts it.
        var startsGroup = false
    }

    private let state: Mutex<State>
    private let stream: EventSource
    private let outbox: GroupOutbox

    /// Seconds to connect to the host and for each exchange with it.
    static let timeout = 10.0

    private init(
        request: GroupMembershipRequest, follower: GroupFollower, clock: any PlaybackClock, offset: Double, clockBound: Double, stream: EventSource
    ) {
        self.request = request
        self.clock = clock
        self.offset = offset
        self.clockBound = clockBound
        self.stream = stream
        state = Mutex(State(follower: follower))
        outbox = GroupOutbox(url: Self.url(request, GroupPath.inputs(request.groupID).target), timeout: Self.timeout)
    }

    /// Joins the group before the session starts: the clock exchange, the command stream, and the
    /// join, which the host may refuse (another time scale, another primary length), as a 409 here too.
    static func join(
        _ request: GroupMembershipRequest, grouped: GroupCastPlanning.Grouped, timeScale: Double, clock: any PlaybackClock
    ) async throws(ProtocolError) -> GroupMembership {
        let follower = GroupFollower(name: request.participant, ads: grouped.ads, stitched: grouped.stitched)
        var join = GroupInputMessage(participant: request.participant, op: .join)
        join.policy = request.policy
        join.ads = grouped.ads
        join.timeScale = timeScale
        join.lengths = GroupLengths(grouped.ranges, live: grouped.plan.isLive)
        join.contentID = request.contentID
        let body = WireJSON.data(join)
        let host = "group host \(request.host):\(request.port)"
        let (offset, bound) = try await synchronize(request, clock: clock).get()
        var listen = hostRequest(request, GroupPath.events(request.groupID, participant: request.participant).target)
        // The host sends commands when the group has some, which may be minutes apart, and no
        // heartbeats: the stream waits as long as the membership lasts.
        listen.totalTimeout = nil
        listen.lowSpeed = nil
        let stream: EventSource
        switch await EventSource.open(listen) {
        case .open(let opened) where opened.head.status == 200: stream = opened
        case .open(let opened):
            opened.close()
            throw refusal(status: opened.head.status, "")
        case .refused(let status, _, let answer): throw refusal(status: status, String(decoding: answer, as: UTF8.self))
        case .failed(let error): throw ProtocolError(status: 502, "\(host): \(error)")
        }
        var post = hostRequest(request, GroupPath.inputs(request.groupID).target)
        post.method = .post
        post.body = body
        post.headers.append(("Content-Type", "application/json"))
        let answer = await TransferLoop.shared.fetch(post)
        guard answer.error == nil, let status = answer.status, status == 200 else {
            stream.close()
            if let error = answer.error { throw ProtocolError(status: 502, "\(host): \(error)") }
            throw refusal(status: answer.status ?? 0, String(decoding: answer.body ?? Data(), as: UTF8.self))
        }
        let standing = try? WireJSON.decoder.decode(GroupStanding.self, from: answer.body ?? Data())
        let membership = GroupMembership(request: request, follower: follower, clock: clock, offset: offset, clockBound: bound, stream: stream)
        membership.state.withLock { $0.startsGroup = standing.map { $0.rate == 0 && $0.awaiting == 0 && $0.participants == 1 } ?? false }
        membership.listen()
        return membership
    }

    /// The host's URL for `target`.
    static func url(_ request: GroupMembershipRequest, _ target: String) -> String {
        let host = request.host.contains(":") && !request.host.hasPrefix("[") ? "[\(request.host)]" : request.host
        return "http://\(host):\(request.port)\(target)"
    }

    /// A GET of `target` on the host, with the membership's timeouts and a cap on what it answers.
    static func hostRequest(_ request: GroupMembershipRequest, _ target: String) -> TransferRequest {
        TransferRequest(
            url: url(request, target), connectTimeout: .seconds(timeout), firstByteTimeout: .seconds(timeout),
            lowSpeed: TransferRequest.LowSpeed(bytesPerSecond: 1, seconds: Int(timeout)), totalTimeout: .seconds(6 * timeout),
            bodyLimit: answerLimit)
    }

    /// The most a host's answer may hold: a clock reading or a standing is a few hundred bytes.
    static let answerLimit = 1 << 20

    /// A refusal by the host, passed on to the sender with the host's reason.
    private static func refusal(status: Int, _ body: String) -> ProtocolError {
        let reason = body.trimmingCharacters(in: .whitespacesAndNewlines)
        // The host's 4xx is a conflict with the group (no such group, another time scale, another length).
        return ProtocolError(status: (400..<500).contains(status) ? 409 : 502, "the group host refused the join (\(status)): \(reason.prefix(2000))")
    }

    /// The NTP exchange over four clock readings, one after another (libcurl keeps the connection
    /// between them, so only the first pays for connecting): the one with the smallest round trip
    /// gives the offset.
    private static func synchronize(
        _ request: GroupMembershipRequest, clock: any PlaybackClock
    ) async -> Result<(offset: Double, bound: Double), ProtocolError> {
        var best: (offset: Double, delay: Double)?
        let reading = hostRequest(request, GroupPath.clock(request.groupID).target)
        for _ in 0..<4 {
            let sent = clock.now
            let answer = await TransferLoop.shared.fetch(reading)
            let received = clock.now
            if let error = answer.error { return .failure(ProtocolError(status: 502, "group host \(request.host):\(request.port): \(error)")) }
            let body = answer.body ?? Data()
            guard answer.status == 200 else { return .failure(refusal(status: answer.status ?? 0, String(decoding: body, as: UTF8.self))) }
            guard let clockReading = try? WireJSON.decoder.decode(GroupClockReading.self, from: body),
                clockReading.receivedAt.isFinite, clockReading.sentAt.isFinite
            else {
                return .failure(ProtocolError(
                    status: 502, "group host \(request.host):\(request.port): GET \(GroupPath.clock(request.groupID).target) answered 200: \(String(decoding: body.prefix(200), as: UTF8.self))"))
            }
            let sample = clockReading.offset(sent: sent, received: received)
            if best.map({ sample.delay < $0.delay }) ?? true { best = sample }
        }
        return .success((best!.offset, best!.delay / 2))
    }

    /// The group clock now, as this receiver estimates it.
    var groupNow: Double { clock.now + offset }

    // MARK: - The session's side

    /// The session now playing for this participant; commands that came meanwhile are applied now.
    func attach(_ session: PlaybackSession) {
        let early = state.withLock { state in
            state.session = session
            defer { state.early = [] }
            return state.early
        }
        observe(ended: false)
        for command in early { apply(command) }
    }

    /// The session's engine changed: tell the group about suspensions, leave it when the session ended.
    func observe(ended: Bool) {
        guard let session = state.withLock({ $0.session }) else { return }
        let engine = session.engineNow
        let reaction = state.withLock { state -> GroupFollower.Reaction in
            state.follower.observe(engine, ended: ended || !engine.isActive, groupNow: groupNow)
        }
        send(reaction.inputs)
        if reaction.becameReady {
            outbox.post(GroupInputMessage(participant: request.participant, op: .ready))
            startIfPaused(engine)
        }
        for command in reaction.commands { _ = session.handle(command) }
        if state.withLock({ $0.follower.left }) { close() }
    }

    /// A sender's `/play` means play: the first participant of a paused group without a coordinated start starts it.
    private func startIfPaused(_ engine: PlaybackEngine) {
        guard state.withLock({ $0.startsGroup }) else { return }
        send([.intent(from: request.participant, .rate(1), primary: engine.position)])
    }

    /// A sender's transport command on this receiver: the group decides, unless the participant is in
    /// its own break (a suspended participant sends no intents; its engine applies them itself).
    /// Returns nil when the command went to the group, else what the engine made of it.
    func senderCommand(_ command: PlaybackCommand) -> [PlaybackEvent]? {
        guard let session = state.withLock({ $0.session }) else { return nil }
        let (outcome, suspended) = state.withLock { ($0.follower.senderCommand(command), $0.follower.adFrom != nil || $0.follower.stalled) }
        switch outcome {
        case .intent(let intent) where !suspended:
            send([.intent(from: request.participant, intent, primary: session.engineNow.position)])
            return nil
        case .intent, .local, .stop:
            return session.handle(command) ?? []
        }
    }

    /// What `/playback-info` shows for the group: `timeControlStatus`, its reason, the rate it resumes
    /// at, and its sync error against the group now (nil while it does not follow).
    func status(of engine: PlaybackEngine) -> GroupStatus {
        state.withLock { state in
            GroupStatus(
                status: state.follower.playerStatus(rate: engine.rate, loading: engine.state == .loading),
                resumeRate: state.follower.groupRate, syncError: state.follower.syncError(engine, groupNow: groupNow),
                groupTime: groupNow, corrections: state.follower.corrections)
        }
    }

    struct GroupStatus {
        var status: PlayerStatus
        var resumeRate: Double
        var syncError: Double?
        var groupTime: Double
        var corrections: Int
    }

    // MARK: - The host's side

    /// Reads the host's commands as they come, in a task: they arrive on the transfer loop and are
    /// applied off it, since applying one runs the session's engine.
    private func listen() {
        let events = stream.events
        Task { [weak self] in
            var iterator = events.makeAsyncIterator()
            while let event = try? await iterator.next() {
                guard event.event == "command",
                    let message = try? WireJSON.decoder.decode(GroupStreamMessage.self, from: Data(event.data.utf8)),
                    let command = message.command?.command
                else { continue }
                guard let self else { return }
                self.receive(command)
            }
        }
    }

    private func receive(_ command: GroupCommand) {
        let attached = state.withLock { state -> Bool in
            guard state.session != nil else {
                state.early.append(command)
                return false
            }
            return true
        }
        if attached { apply(command) }
    }

    private func apply(_ command: GroupCommand) {
        guard let session = state.withLock({ $0.session }) else { return }
        let engine = session.engineNow
        let commands = state.withLock { $0.follower.apply(command, engine: engine, groupNow: groupNow) }
        for command in commands { _ = session.handle(command) }
    }

    private func send(_ inputs: [GroupInput]) {
        for input in inputs {
            if let message = GroupInputMessage(input) { outbox.post(message) }
        }
    }

    /// Leaves the group: a leave if the follower has not sent one, then the stream closes (which the
    /// host also takes as a leave, should the input be lost).
    func close() {
        let (first, leave) = state.withLock { state in
            defer { state.leaving = true }
            return (!state.leaving, !state.follower.left)
        }
        guard first else { return }
        if leave { outbox.post(GroupInputMessage(participant: request.participant, op: .leave)) }
        outbox.finish { [stream] in stream.close() }
    }
}
