import Foundation
import JSONDocument

/// RTSP `SETUP` on an AirPlay 2 connection, as a sender that casts a URL sends it (pyatv, iOS): who it
/// is and its timing port, no streams. A real receiver answers with the port of its event channel,
/// which the sender connects to next. Audio streams (`streams`, RAOP's second SETUP) are not emulated.
public struct StreamSetup: Sendable, Equatable {
    public var timingPort: UInt16?
    public var timingProtocol: String?
    public var sessionUUID: String?
    public var deviceID: String?
    public var model: String?
    public var name: String?
    public var osVersion: String?
    /// How many streams the sender asked for: an audio SETUP when above 0.
    public var streamCount: Int

    public init(streamCount: Int) {
        self.streamCount = streamCount
    }

    /// The body a sender sends: a binary property list of the members set (no streams: a cast by URL).
    public func propertyList() -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let body = SetupRequest(
            timingPort: timingPort.map(Int.init), timingProtocol: timingProtocol ?? "None", sessionUUID: sessionUUID, deviceID: deviceID,
            model: model, name: name, osVersion: osVersion)
        return (try? encoder.encode(body)) ?? Data()
    }

    /// The event port a receiver's SETUP answer names; nil when it is not such an answer.
    public static func eventPort(inAnswer body: Data) -> Int? {
        (try? PropertyListInput.decode(SetupAnswer.self, from: body))?.eventPort
    }

    /// Reads a SETUP body: a binary property list dictionary; an empty body is a SETUP with nothing.
    public static func decode(_ body: Data) throws(ProtocolError) -> StreamSetup {
        guard !body.isEmpty else { return StreamSetup(streamCount: 0) }
        let document: SetupBody
        do {
            document = try PropertyListInput.decode(SetupBody.self, from: body)
        } catch let error as WireFieldError {
            throw ProtocolError("\(error.key) in the SETUP property list is not \(error.expected)")
        } catch {
            throw ProtocolError("the SETUP body is not a property list dictionary")
        }
        var setup = StreamSetup(streamCount: document.streams ?? 0)
        if let port = document.timingPort {
            guard port.rounded() == port, (0...65535).contains(port) else { throw ProtocolError("timingPort \(port) is not a port from 0 to 65535") }
            setup.timingPort = UInt16(port)
        }
        func text(_ value: String?, _ name: String) throws(ProtocolError) -> String? {
            guard let value else { return nil }
            guard value.utf8.count <= 256 else { throw ProtocolError("\(name) in the SETUP property list is over 256 bytes") }
            return value
        }
        setup.timingProtocol = try text(document.timingProtocol, "timingProtocol")
        setup.sessionUUID = try text(document.sessionUUID, "sessionUUID")
        setup.deviceID = try text(document.deviceID, "deviceID")
        setup.model = try text(document.model, "model")
        setup.name = try text(document.name, "name")
        setup.osVersion = try text(document.osVersion, "osVersion")
        return setup
    }

    /// The answer: the event channel's port (and no timing port: airlab keeps no clock with senders).
    public static func answer(eventPort: UInt16) -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(SetupAnswer(eventPort: Int(eventPort), timingPort: 0))) ?? Data()
    }

    public struct SetupAnswer: Codable, Equatable, Sendable {
        public var eventPort: Int
        public var timingPort: Int
    }
}

/// The members of a SETUP body airlab's sender writes.
private struct SetupRequest: Encodable {
    var timingPort: Int?
    var timingProtocol: String
    var sessionUUID: String?
    var deviceID: String?
    var model: String?
    var name: String?
    var osVersion: String?
}

/// The members of a SETUP body airlab reads; others are left.
struct SetupBody: Decodable {
    var timingPort: Double?
    var timingProtocol: String?
    var sessionUUID: String?
    var deviceID: String?
    var model: String?
    var name: String?
    var osVersion: String?
    var streams: Int?

    enum CodingKeys: String, CodingKey {
        case timingPort, timingProtocol, sessionUUID, deviceID, model, name, osVersion, streams
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timingPort = try container.wireField(.timingPort, expected: "a number")
        timingProtocol = try container.wireField(.timingProtocol, expected: "text")
        sessionUUID = try container.wireField(.sessionUUID, expected: "text")
        deviceID = try container.wireField(.deviceID, expected: "text")
        model = try container.wireField(.model, expected: "text")
        name = try container.wireField(.name, expected: "text")
        osVersion = try container.wireField(.osVersion, expected: "text")
        // Only their number matters: an audio SETUP is refused.
        streams = container.contains(.streams) ? ((try? container.decode([JSONValue].self, forKey: .streams))?.count ?? 1) : nil
    }
}
