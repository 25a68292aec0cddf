import Foundation

/// What a receiver writes on an AirPlay 2 event channel: RTSP requests the sender answers `200`.
///
/// A tvOS 16 Apple TV, once a sender has connected the channel, sends `POST /command RTSP/1.0` with a
/// binary property list `{type: "updateInfo", value: <its /info record>}` (logged in pyatv#1768, where
/// pyatv's event channel acknowledges it). airlab's receivers send the same with their own record.
public enum EventChannelMessage {
    /// `POST /command` carrying `updateInfo` with `info`, as the `sequence`-th request on the channel.
    public static func updateInfo(_ info: DeviceInfo, sequence: Int) -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let body = (try? encoder.encode(Command(type: "updateInfo", value: info))) ?? Data()
        let head = "POST /command RTSP/1.0\r\nCSeq: \(sequence)\r\nContent-Type: application/x-apple-binary-plist\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + [UInt8](body)
    }

    private struct Command<Value: Encodable>: Encodable {
        var type: String
        var value: Value
    }
}
