import Foundation
import SenderProtocol

/// The group routes of a receiver that hosts groups, and the state a grouped receiver shows.
extension ReceiverClient {
    /// `POST /groups`.
    public func createGroup(_ creation: GroupCreation) async throws(ReceiverError) -> GroupSummary {
        let response = try await exchange(.post, GroupPath.all.target, json: WireJSON.data(creation))
        return try decodeGroup(response)
    }

    /// `GET /groups/ID`.
    public func group(_ id: String) async throws(ReceiverError) -> GroupSummary {
        try decodeGroup(try await exchange(.get, GroupPath.group(id).target))
    }

    /// `DELETE /groups/ID`.
    public func deleteGroup(_ id: String) async throws(ReceiverError) {
        _ = try await exchange(.delete, GroupPath.group(id).target)
    }

    /// `GET /playback-info`, with the group's status of a grouped receiver.
    public func playbackInfo(on connection: ReceiverConnection? = nil) async throws(ReceiverError) -> PlaybackInfo {
        let response = try await exchange(.get, Route.playbackInfo.path(), on: connection)
        do {
            return try PropertyListInput.decode(PlaybackInfo.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the /playback-info answer is not a property list of playback info"))
        }
    }

    /// The group's URL as participants name it.
    public func groupURL(_ id: String) -> String {
        "http://\(receiver.address)\(GroupPath.group(id).target)"
    }

    private func decodeGroup(_ response: ReceiverAnswer) throws(ReceiverError) -> GroupSummary {
        do {
            return try WireJSON.decoder.decode(GroupSummary.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the group answer is not a group: \(response.text.prefix(120))"))
        }
    }
}
