import Foundation
import HTTP
import SenderProtocol

/// The group routes of a receiver that hosts groups, and the state a grouped receiver shows.
extension ReceiverClient {
    /// `POST /groups`.
    public func createGroup(_ creation: GroupCreation) async throws(ReceiverError) -> GroupSummary {
        let response = try await exchange(HTTPClientRequest(
            method: "POST", target: Route.groups.path(), headers: ["Content-Type": "application/json"], body: WireJSON.data(creation)))
        return try decodeGroup(response)
    }

    /// `GET /groups/ID`.
    public func group(_ id: String) async throws(ReceiverError) -> GroupSummary {
        try decodeGroup(try await exchange(HTTPClientRequest(method: "GET", target: Route.group.path(session: id))))
    }

    /// `DELETE /groups/ID`.
    public func deleteGroup(_ id: String) async throws(ReceiverError) {
        _ = try await exchange(HTTPClientRequest(method: "DELETE", target: Route.group.path(session: id)))
    }

    /// `GET /playback-info`, with the group's status of a grouped receiver.
    public func playbackInfo(on connection: HTTPClientConnection? = nil) async throws(ReceiverError) -> PlaybackInfo {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.playbackInfo.path()), on: connection)
        do {
            return try PropertyListInput.decode(PlaybackInfo.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the /playback-info answer is not a property list of playback info"))
        }
    }

    /// The group's URL as participants name it.
    public func groupURL(_ id: String) -> String {
        "http://\(receiver.address)\(Route.group.path(session: id))"
    }

    private func decodeGroup(_ response: HTTPClientResponse) throws(ReceiverError) -> GroupSummary {
        do {
            return try WireJSON.decoder.decode(GroupSummary.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the group answer is not a group: \(response.text.prefix(120))"))
        }
    }
}
