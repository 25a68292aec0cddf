import Emulation
import Foundation
import HLS
import HTTP
import SenderProtocol
import Synchronization

/// One group a receiver hosts: its coordinator on the host's clock, the first participant's lengths
/// (the equal-length rule's reference), and the streams of its participants and observers.
///
/// Inputs are applied in the order they arrive, under one lock, and what the coordinator answers is
/// queued on the streams before the lock is released, so every listener hears one order of events.
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

    private struct State {
        var coordinator: GroupCoordinator
        var reference: (lengths: StitchedRanges, live: Bool, participant: String)?
        /// Joins still awaited before the coordinated start; nil once started, or without one.
        var awaiting: Int?
        /// Participants that have loaded: the coordinated start waits for all of them.
        var ready: Set<String> = []
        var participantStreams: [String: [SSEStream]] = [:]
        var observers: [SSEStream] = []
        var closed = false
    }

    private let state: Mutex<State>

    init(id: String, creation: GroupCreation, timeScale: Double, clock: any PlaybackClock) {
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
    }

    var now: Double { clock.now }

    var summary: GroupSummary {
        state.withLock { GroupSummary(id: id, coordinator: $0.coordinator, groupTime: clock.now, awaiting: Self.remaining($0)) }
    }

    // MARK: - Inputs

    /// Applies one participant message; a refusal is a `ProtocolError` (400 for a malformed message,
    /// 409 for a participant the group cannot take).
    func handle(_ message: GroupInputMessage) throws(ProtocolError) {
        let input: GroupInput
        do throws(GroupInputMessage.Failure) {
            input = try message.input(defaultPolicy: defaultPolicy)
        } catch {
            throw ProtocolError("group '\(id)': \(error.reason)")
        }
        try state.withLock { state throws(ProtocolError) in
            guard !state.closed else { throw ProtocolError(status: 410, "group '\(id)' was deleted") }
            if message.op == .join { try admit(message, in: &state) }
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
        for action in state.coordinator.handle(input, at: now) {
            switch action {
            case .command(let name, let command):
                let message = GroupStreamMessage(command: command, to: name, at: now)
                let text = String(decoding: WireJSON.data(message), as: UTF8.self)
                for stream in state.participantStreams[name] ?? [] { stream.send(event: "command", data: text) }
                for stream in state.observers { stream.send(event: "command", data: text) }
            case .event(let event):
                let message = GroupStreamMessage(event)
                let text = String(decoding: WireJSON.data(message), as: UTF8.self)
                for stream in state.observers { stream.send(event: message.kind, data: text) }
            }
        }
    }

    // MARK: - Streams

    /// A stream of the commands for `participant`, or, without one, of every command and event.
    func subscribe(participant: String?) throws(ProtocolError) -> SSEStream {
        if let participant, let refusal = GroupCreation.nameRefusal("participant", participant) { throw ProtocolError(refusal) }
        let stream = SSEStream(onClose: { [weak self] stream, _ in self?.streamClosed(stream, participant: participant) })
        try state.withLock { state throws(ProtocolError) in
            guard !state.closed else { throw ProtocolError(status: 410, "group '\(id)' was deleted") }
            let count = state.observers.count + state.participantStreams.values.reduce(0) { $0 + $1.count }
            guard count < Self.streamLimit else { throw ProtocolError(status: 503, "group '\(id)' has \(Self.streamLimit) listeners, its most") }
            // The stream's first event says where the group stands, so a listener starts from a known state.
            let summary = GroupSummary(id: id, coordinator: state.coordinator, groupTime: clock.now, awaiting: Self.remaining(state))
            stream.send(event: "group", data: String(decoding: WireJSON.data(summary), as: UTF8.self))
            if let participant {
                state.participantStreams[participant, default: []].append(stream)
            } else {
                state.observers.append(stream)
            }
        }
        return stream
    }

    private func streamClosed(_ stream: SSEStream, participant: String?) {
        state.withLock { state in
            guard let participant else {
                state.observers.removeAll { $0 === stream }
                return
            }
            state.participantStreams[participant]?.removeAll { $0 === stream }
            guard state.participantStreams[participant]?.isEmpty ?? true else { return }
            state.participantStreams[participant] = nil
            // Its receiver is gone without saying so: it leaves, which may release a held group.
            if !state.closed, state.coordinator.participant(participant).map({ $0.follow != .left }) == true {
                apply(.leave(participant), in: &state)
            }
        }
    }

    /// `POST /groups/ID/messages`: relayed to every listener as it came (GroupSessionMessenger's role).
    func relay(_ body: Data) throws(ProtocolError) {
        guard body.count <= 64 * 1024 else { throw ProtocolError(status: 413, "a group message is at most 64 KiB") }
        guard case .object? = JSONValue(document: body) else { throw ProtocolError("a group message is a JSON object") }
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        state.withLock { state in
            for stream in state.observers + state.participantStreams.values.joined() { stream.send(event: "message", data: text) }
        }
    }

    /// Ends the group: every stream closes.
    func close() {
        let streams = state.withLock { state -> [SSEStream] in
            state.closed = true
            defer {
                state.observers = []
                state.participantStreams = [:]
            }
            return state.observers + state.participantStreams.values.joined()
        }
        for stream in streams { stream.close() }
    }
}
