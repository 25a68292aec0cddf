import Coordination
import Foundation
import HLS
import HTTP
import JSONDocument
import SenderProtocol
import ServerSentEvents
import Sessions
import Synchronization

/// One group a receiver hosts: its coordinator on the host's clock, the first participant's lengths
/// (the equal-length rule's reference), and the streams of its participants and observers.
///
/// Inputs are applied in the order they arrive, under one lock. What the coordinator answers, and
/// every relayed message, is handed under that lock to the group's delivery queue, which encodes it
/// once and queues the same bytes on every listener after the lock is released: every listener hears
/// one order of events, and no request writes to a listener or waits for one. A listener whose queue
/// passes `listenerQueueLimit` is dropped (its stream closed), never waited for.
/// A participant whose stream closes (its receiver died or left) leaves the group: that is what
/// releases a group held for a participant that will never come back.
final class HostedGroup: Sendable {
    let id: String
    let contentID: String
    let defaultPolicy: GroupPolicy
    let lengthCheck: PrimaryLengthCheck
    /// The host's `--time-scale`: participants must play at it, or one group second would be two lengths.
    let timeScale: Double
    private let clock: any PlaybackClock

    /// At most this many participants, active or gone: a group's state stays small.
    static let participantLimit = 256
    /// At most this many listeners on one group.
    static let streamLimit = 512
    /// The most bytes that may wait for one listener: sixteen of the largest relayed messages.
    static let listenerQueueLimit = 16 * messageLimit
    /// The largest relayed message.
    static let messageLimit = 64 * 1024
    /// The most ad breaks all participants of a group may declare together: with the participant
    /// limit and `GroupInputMessage.maximumBreaks`, this bounds `GET /groups/ID`.
    static let declaredBreakLimit = 16_384

    /// A listener of the group's stream: a participant's (its commands) or an observer's (everything).
    private struct Listener {
        var stream: SSEStream
        var participant: String?
    }

    /// What the delivery queue sends, in the order the lock saw it.
    private enum Delivery {
        case actions([GroupAction], at: Double)
        case message(ServerSentEvent.Frame)
        case greeting(GroupStanding)
    }

    private struct State {
        var coordinator: GroupCoordinator
        var reference: (lengths: StitchedRanges, live: Bool, participant: String)?
        /// Joins still awaited before the coordinated start; nil once started, or without one.
        var awaiting: Int?
        /// Participants that have loaded: the coordinated start waits for all of them.
        var ready: Set<String> = []
        var listeners: [ObjectIdentifier: Listener] = [:]
        /// Breaks declared by every participant that joined (its latest join counts).
        var declaredBreaks: [String: Int] = [:]
        var closed = false
    }

    private let state: Mutex<State>
    /// Encodes and queues what listeners hear, in order, off the lock and off Swift's shared threads.
    private let delivery: DispatchQueue
    /// Told of each listener dropped for falling behind.
    private let dropped: @Sendable (_ group: String, _ count: Int) -> Void

    init(
        id: String, creation: GroupCreation, timeScale: Double, clock: any PlaybackClock,
        dropped: @escaping @Sendable (_ group: String, _ count: Int) -> Void = { _, _ in }
    ) {
        self.id = id
        contentID = creation.contentID
        defaultPolicy = creation.policy ?? .catchUp
        let rate = creation.framesPerSecond.flatMap { (1...1000).contains($0) ? $0 : nil } ?? 30
        lengthCheck = PrimaryLengthCheck(frameDuration: .frame(framesPerSecond: Int64(rate)))
        self.timeScale = timeScale
        self.clock = clock
        var initial = State(coordinator: GroupCoordinator(contentID: creation.contentID, now: clock.now))
        initial.awaiting = creation.startWith
        state = Mutex(initial)
        delivery = DispatchQueue(label: "airlab.receiver.group.delivery", qos: .userInitiated)
        self.dropped = dropped
    }

    var now: Double { clock.now }

    /// The whole group, every participant's plan included (`GET /groups/ID`).
    var summary: GroupSummary {
        state.withLock { GroupSummary(id: id, coordinator: $0.coordinator, groupTime: clock.now, awaiting: Self.remaining($0)) }
    }

    /// The group as `caller` sees it, without anyone's plan.
    func standing(for caller: String? = nil) -> GroupStanding {
        state.withLock { standing(in: $0, for: caller) }
    }

    private func standing(in state: State, for caller: String?) -> GroupStanding {
        GroupStanding(id: id, coordinator: state.coordinator, groupTime: clock.now, awaiting: Self.remaining(state), caller: caller)
    }

    // MARK: - Inputs

    /// Applies one participant message; a refusal is a `ProtocolError` (400 for a malformed message,
    /// 409 for a participant the group cannot take, 413 for a plan past a participant's or the group's bound).
    func handle(_ message: GroupInputMessage) throws(ProtocolError) {
        let input: GroupInput
        do throws(GroupInputMessage.Failure) {
            input = try message.input(defaultPolicy: defaultPolicy)
        } catch {
            throw ProtocolError(status: error.status, "group '\(id)': \(error.reason)")
        }
        try state.withLock { state throws(ProtocolError) in
            guard !state.closed else { throw ProtocolError(status: 410, "group '\(id)' was deleted") }
            if message.op == .join {
                try admit(message, in: &state)
                state.declaredBreaks[message.participant] = message.ads?.breaks.count ?? 0
            }
            if message.op == .ready { state.ready.insert(message.participant) }
            apply(input, in: &state)
            startIfDue(after: message.participant, in: &state)
        }
    }

    /// The join rules the coordinator does not know: the time scale, the participant count, and the
    /// equal-length rule against the first participant.
    private func admit(_ message: GroupInputMessage, in state: inout State) throws(ProtocolError) {
        if let scale = message.timeScale, abs(scale - timeScale) > 1e-9 * max(1, timeScale) {
            throw ProtocolError(status: 409,
                "participant '\(message.participant)' plays at --time-scale \(scale), but group '\(id)' is hosted at \(timeScale); every receiver of a group must share one time scale")
        }
        if let content = message.contentID, content != contentID {
            throw ProtocolError(status: 409, "participant '\(message.participant)' watches '\(content.prefix(256))', but group '\(id)' watches '\(contentID)'")
        }
        let known = state.coordinator.participants.contains { $0.name == message.participant }
        guard known || state.coordinator.participants.count < Self.participantLimit else {
            throw ProtocolError(status: 409, "group '\(id)' has \(Self.participantLimit) participants, its most")
        }
        let declaring = message.ads?.breaks.count ?? 0
        let declared = state.declaredBreaks.values.reduce(0, +) - (state.declaredBreaks[message.participant] ?? 0)
        guard declared + declaring <= Self.declaredBreakLimit else {
            throw ProtocolError(status: 413,
                "participant '\(message.participant)' declares \(declaring) ad breaks, but group '\(id)' already holds \(declared) of its \(Self.declaredBreakLimit)")
        }
        guard let lengths = message.lengths else { return }
        guard let ranges = lengths.stitchedRanges else {
            throw ProtocolError("participant '\(message.participant)': its lengths are out of range or its ranges overlap")
        }
        guard let reference = state.reference, reference.participant != message.participant else {
            state.reference = (ranges, lengths.live, message.participant)
            return
        }
        let verdict = lengths.live || reference.live
            ? lengthCheck.checkLiveBreaks(group: reference.lengths.ranges, participant: ranges.ranges, participantID: message.participant)
            : lengthCheck.check(groupPrimaryLength: reference.lengths.primaryLength, participant: ranges, participantID: message.participant)
        if let refusal = verdict.diagnostics.first(where: { $0.severity == .error }) {
            throw ProtocolError(status: 409, "\(refusal.code.rawValue): \(refusal.message)")
        }
    }

    /// The coordinated start: once the awaited participants have joined and every one of them has
    /// loaded, the group starts together from where it stands. (Started earlier, a participant still
    /// loading would begin behind the others by what it had left to load.)
    private func startIfDue(after participant: String, in state: inout State) {
        guard let awaiting = state.awaiting else { return }
        let active = state.coordinator.participants.filter { $0.follow != .left }.map(\.name)
        guard active.count >= awaiting, active.allSatisfy(state.ready.contains) else { return }
        state.awaiting = nil
        apply(.intent(from: participant, .rate(1), primary: state.coordinator.position), in: &state)
    }

    /// Joins still awaited before the coordinated start.
    private static func remaining(_ state: State) -> Int {
        state.awaiting.map { max(0, $0 - state.coordinator.participants.count { $0.follow != .left }) } ?? 0
    }

    private func apply(_ input: GroupInput, in state: inout State) {
        let now = clock.now
        let actions = state.coordinator.handle(input, at: now)
        guard !actions.isEmpty, !state.listeners.isEmpty else { return }
        deliver(.actions(actions, at: now), to: Array(state.listeners.values))
    }

    // MARK: - Streams

    /// A stream of the commands for `participant`, or, without one, of every command and event. Its
    /// first event is the group as it stands, so a listener starts from a known state.
    func subscribe(participant: String?) throws(ProtocolError) -> SSEStream {
        if let participant, let refusal = GroupCreation.nameRefusal("participant", participant) { throw ProtocolError(refusal) }
        let stream = SSEStream(limit: Self.listenerQueueLimit, onClose: { [weak self] stream, _ in self?.streamClosed(stream, participant: participant) })
        try state.withLock { state throws(ProtocolError) in
            guard !state.closed else { throw ProtocolError(status: 410, "group '\(id)' was deleted") }
            guard state.listeners.count < Self.streamLimit else { throw ProtocolError(status: 503, "group '\(id)' has \(Self.streamLimit) listeners, its most") }
            let listener = Listener(stream: stream, participant: participant)
            state.listeners[ObjectIdentifier(stream)] = listener
            deliver(.greeting(standing(in: state, for: participant)), to: [listener])
        }
        return stream
    }

    private func streamClosed(_ stream: SSEStream, participant: String?) {
        state.withLock { state in
            guard state.listeners.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
            forgetIfGone(participant, in: &state)
        }
    }

    /// A participant with no stream left is gone without saying so: it leaves, which may release a held group.
    private func forgetIfGone(_ participant: String?, in state: inout State) {
        guard let participant, !state.closed, !state.listeners.values.contains(where: { $0.participant == participant }) else { return }
        if state.coordinator.participant(participant).map({ $0.follow != .left }) == true {
            apply(.leave(participant), in: &state)
        }
    }

    /// `POST /groups/ID/messages`: relayed to every listener as it came (GroupSessionMessenger's role).
    /// Checked and encoded once before the lock; the request returns once the message is queued.
    func relay(_ body: Data) throws(ProtocolError) {
        guard body.count <= Self.messageLimit else { throw ProtocolError(status: 413, "a group message is at most \(Self.messageLimit / 1024) KiB, not \(body.count) bytes") }
        guard case .object? = JSONValue(document: body) else { throw ProtocolError("a group message is a JSON object") }
        let frame = ServerSentEvent(event: "message", data: String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")).frame
        try state.withLock { state throws(ProtocolError) in
            guard !state.closed else { throw ProtocolError(status: 410, "group '\(id)' was deleted") }
            deliver(.message(frame), to: Array(state.listeners.values))
        }
    }

    /// Hands `delivery` to the delivery queue; called with the lock held, so that the queue sees
    /// what the lock saw in the order it saw it.
    private func deliver(_ delivery: Delivery, to listeners: [Listener]) {
        self.delivery.async { [self] in
            let fellBehind = send(delivery, to: listeners)
            guard !fellBehind.isEmpty else { return }
            dropped(id, fellBehind.count)
            state.withLock { state in
                for listener in fellBehind where state.listeners.removeValue(forKey: ObjectIdentifier(listener.stream)) != nil {
                    forgetIfGone(listener.participant, in: &state)
                }
            }
        }
    }

    /// Encodes each event once and queues its bytes on every listener it is for; returns the
    /// listeners that were dropped because their queue was full.
    private func send(_ delivery: Delivery, to listeners: [Listener]) -> [Listener] {
        var fellBehind: [Listener] = []
        func queue(_ frame: ServerSentEvent.Frame, on listener: Listener) {
            if listener.stream.send(frame) == .dropped { fellBehind.append(listener) }
        }
        switch delivery {
        case .message(let frame):
            for listener in listeners { queue(frame, on: listener) }
        case .greeting(let standing):
            let frame = ServerSentEvent(event: "group", data: String(decoding: WireJSON.data(standing), as: UTF8.self)).frame
            for listener in listeners { queue(frame, on: listener) }
        case .actions(let actions, let now):
            for action in actions {
                switch action {
                case .command(let name, let command):
                    let message = GroupStreamMessage(command: command, to: name, at: now)
                    let frame = ServerSentEvent(event: "command", data: String(decoding: WireJSON.data(message), as: UTF8.self)).frame
                    for listener in listeners where listener.participant == nil || listener.participant == name { queue(frame, on: listener) }
                case .event(let event):
                    let message = GroupStreamMessage(event)
                    let frame = ServerSentEvent(event: message.kind, data: String(decoding: WireJSON.data(message), as: UTF8.self)).frame
                    for listener in listeners where listener.participant == nil { queue(frame, on: listener) }
                }
            }
        }
        return fellBehind
    }

    /// Ends the group: every stream closes.
    func close() {
        let streams = state.withLock { state -> [SSEStream] in
            state.closed = true
            defer { state.listeners = [:] }
            return state.listeners.values.map(\.stream)
        }
        for stream in streams { stream.close() }
    }
}
