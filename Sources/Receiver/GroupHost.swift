import Foundation
import HTTP
import SenderProtocol
import Sessions
import Synchronization

/// The groups one receiver hosts (`/groups`, docs/groups.md): any receiver can host groups, and
/// receivers anywhere join them over HTTP. Group time is the host's session clock, so it runs at the
/// host's `--time-scale`.
///
/// Requests under `/groups` are answered one at a time on this receiver's own queue, not on Swift's
/// shared threads: decoding a join of up to a mebibyte, or encoding a summary, then holds only this
/// receiver's groups, never another receiver's requests.
final class GroupHost: Sendable {
    let timeScale: Double
    private let clock: any PlaybackClock
    private let groups = Mutex<[String: HostedGroup]>([:])
    private let created = Atomic<Int>(0)
    private let work = DispatchQueue(label: "airlab.receiver.groups", qos: .userInitiated)
    private let dropped: @Sendable (_ group: String, _ count: Int) -> Void

    /// At most this many groups on one receiver.
    static let groupLimit = 64

    /// - Parameter dropped: told how many listeners of a group were dropped for falling behind.
    init(timeScale: Double, clock: any PlaybackClock, dropped: @escaping @Sendable (_ group: String, _ count: Int) -> Void = { _, _ in }) {
        self.timeScale = timeScale
        self.clock = clock
        self.dropped = dropped
    }

    // MARK: - Routes

    /// The group clock, answered at once on the polling thread so that the reading is as fresh as it can be.
    func clockReading(path: String) -> HTTPResponse? {
        guard case .clock(let id)? = GroupPath(path: path), let group = group(id) else { return nil }
        return clockAnswer(group)
    }

    private func clockAnswer(_ group: HostedGroup) -> HTTPResponse {
        let received = group.now
        return json(GroupClockReading(receivedAt: received, sentAt: group.now))
    }

    /// `/groups` and everything under it, answered on this receiver's group queue.
    func respond(to request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        let answer: Result<HTTPResponse, ProtocolError> = await withCheckedContinuation { continuation in
            work.async { [self] in
                do throws(ProtocolError) {
                    continuation.resume(returning: .success(try route(request)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try answer.get()
    }

    private func route(_ request: HTTPRequest) throws(ProtocolError) -> HTTPResponse {
        let path = GroupPath(path: request.path, query: request.query)
        if path == .all { return try groupsRoot(request) }
        guard let path, let id = path.groupID else { throw Self.noSuchPath(request) }
        guard let group = group(id) else {
            throw ProtocolError(status: 404, "this receiver hosts no group '\(id.prefix(64))'; GET /groups lists them")
        }
        switch (request.method, path) {
        case ("GET", .group):
            return json(group.summary)
        case ("DELETE", .group):
            _ = groups.withLock { $0.removeValue(forKey: id) }
            group.close()
            return HTTPResponse(status: 200)
        case ("GET", .clock):
            return clockAnswer(group)
        case ("GET", .events(_, let participant)):
            return .eventStream(try group.subscribe(participant: participant))
        case ("POST", .inputs):
            let message: GroupInputMessage
            do {
                message = try WireJSON.decoder.decode(GroupInputMessage.self, from: request.body)
            } catch {
                throw ProtocolError("the body of \(request.path) is not a group input: {\"participant\": NAME, \"op\": join|leave|begin|end|rate|pause|seek, …}")
            }
            try group.handle(message)
            // The caller's own view: its answer does not grow with what the other participants declared.
            return json(group.standing(for: message.participant))
        case ("POST", .messages):
            try group.relay(request.body)
            return HTTPResponse(status: 202)
        default:
            throw Self.noSuchPath(request)
        }
    }

    private func groupsRoot(_ request: HTTPRequest) throws(ProtocolError) -> HTTPResponse {
        if request.method == "GET" {
            let all = groups.withLock { Array($0.values) }.sorted { $0.id < $1.id }
            return json(GroupListing(groups: all.map { $0.standing() }))
        }
        let creation: GroupCreation
        do {
            creation = try WireJSON.decoder.decode(GroupCreation.self, from: request.body)
        } catch {
            throw ProtocolError("POST /groups takes {\"contentID\": TEXT, \"id\": NAME, \"policy\": {\"waitFor\": [...]}, \"framesPerSecond\": N}")
        }
        guard !creation.contentID.isEmpty, creation.contentID.utf8.count <= 256 else {
            throw ProtocolError("a group's contentID is 1 to 256 bytes of text")
        }
        if let refusal = GroupCreation.limitsRefusal(creation.policy, field: "policy.participantLimits") { throw ProtocolError(refusal) }
        if let count = creation.startWith, !(1...HostedGroup.participantLimit).contains(count) {
            throw ProtocolError("startWith must be 1 to \(HostedGroup.participantLimit) participants, not \(count)")
        }
        let id = creation.id ?? "g\(created.add(1, ordering: .relaxed).newValue)"
        if let refusal = GroupCreation.nameRefusal("group id", id) { throw ProtocolError(refusal) }
        let group = HostedGroup(id: id, creation: creation, timeScale: timeScale, clock: clock, dropped: dropped)
        try groups.withLock { groups throws(ProtocolError) in
            guard groups[id] == nil else { throw ProtocolError(status: 409, "group '\(id)' exists already") }
            guard groups.count < Self.groupLimit else { throw ProtocolError(status: 409, "this receiver hosts \(Self.groupLimit) groups, its most") }
            groups[id] = group
        }
        var response = json(group.summary)
        response.status = 201
        return response
    }

    /// Ends every group (the receiver is shutting down).
    func closeAll() {
        let all = groups.withLock { groups in
            defer { groups.removeAll() }
            return Array(groups.values)
        }
        for group in all { group.close() }
    }

    private func group(_ id: String) -> HostedGroup? {
        groups.withLock { $0[id] }
    }

    private static func noSuchPath(_ request: HTTPRequest) -> ProtocolError {
        ProtocolError(
            status: 404,
            "groups have GET and DELETE /groups/ID, GET /groups/ID/clock and /events, POST /groups/ID/inputs and /messages; not \(request.method) \(request.path)")
    }

    private func json(_ value: some Encodable) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: WireJSON.data(value))
    }
}
