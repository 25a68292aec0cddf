import Coordination
import Foundation
import HLS
import Playback
import Sessions

/// `POST /play`, read in every form senders use (docs/daemon.md, "The protocol").
///
/// Legacy senders send `text/parameters` (`Content-Location: URL` and `Start-Position: 0.25`, lines
/// ending in CRLF or LF), a binary or XML property list with the same keys, and sometimes no
/// Content-Type at all; airlab's own extension is JSON. `Start-Position` is a fraction of the
/// duration in old senders; `Start-Position-Seconds` and JSON `start` are seconds.
public struct PlayRequest: Sendable {
    public enum StartPosition: Sendable, Equatable {
        /// 0…1 of the content's duration.
        case fraction(Double)
        case seconds(Double)
    }

    public var contentLocation: String
    public var start: StartPosition?
    /// From the `X-Apple-Session-ID` header or the body; nil when the sender gives none.
    public var sessionID: String?
    /// JSON extension: the sender's interstitial events (AVPlayerInterstitialEvent's shape).
    public var clientEvents: ClientEvents?
    /// JSON extension: false ignores the playlist's interstitials.
    public var automaticallyHandlesInterstitialEvents = true
    /// JSON extension: the session outlives the connection that sent `/play`.
    public var detached = false
    public var preferredLanguage: String?
    /// JSON extension: the seed of the latency draws (the receiver's default otherwise).
    public var seed: UInt64?
    /// JSON extension: commands the receiver applies itself at session times, so a lab run's sender
    /// acts at exact moments of the session clock.
    public var script: SenderScript?
    /// JSON extension: ad breaks the sender's ad SDK starts itself, and its rule for picture in picture.
    public var sdkAds: SDKAdSchedule?
    public var sdkAdInPictureInPicture = SDKAdInPictureInPicture.skip
    /// JSON extension: the group this receiver joins, checked.
    public var group: GroupMembershipRequest?
    /// The restriction words an AirPlay 2 sender's `/play` carries; nil when it sent neither.
    public var restrictions: SenderRestrictions?
    /// Whether airlab's JSON order came with it (as the body, or inside a property list), so that the
    /// answer names the session as airlab's sender reads it.
    public var isAirlabOrder = false

    /// The body forms, as `Content-Type` names them or as their first bytes show.
    public typealias BodyForm = CastOrigin.Body

    public static func decode(body: Data, contentType: String?, sessionHeader: String?) throws(ProtocolError) -> PlayRequest {
        var request: PlayRequest
        switch form(of: body, contentType: contentType) {
        case .json: request = try fromJSON(body)
        case .plist: request = try fromPlist(body)
        case .parameters: request = try fromParameters(body)
        }
        if let header = sessionHeader, !header.isEmpty { request.sessionID = header }
        return request
    }

    public static func form(of body: Data, contentType: String?) -> BodyForm {
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch type {
        case "application/json": return .json
        case "application/x-apple-binary-plist", "text/x-apple-plist+xml", "application/x-plist", "application/xml": return .plist
        case "text/parameters": return .parameters
        default:
            // No or an unknown Content-Type: senders in the wild omit it; the bytes say what they are.
            let start = body.prefix(8)
            if start.starts(with: Array("bplist".utf8)) || start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8)) {
                return .plist
            }
            if body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") { return .json }
            return .parameters
        }
    }

    private static func fromParameters(_ body: Data) throws(ProtocolError) -> PlayRequest {
        guard let text = String(data: body, encoding: .utf8) else {
            throw ProtocolError("the /play body is not UTF-8 text/parameters, a property list or JSON")
        }
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        func field(_ key: String, _ name: String) throws(ProtocolError) -> Double? {
            guard let text = fields[key] else { return nil }
            return try number(text, name)
        }
        return try make(
            location: fields["content-location"], fraction: field("start-position", "Start-Position"),
            seconds: field("start-position-seconds", "Start-Position-Seconds"), sessionID: fields["x-apple-session-id"])
    }

    private static func fromPlist(_ body: Data) throws(ProtocolError) -> PlayRequest {
        let plist: PropertyListPlayBody
        do {
            plist = try PropertyListInput.decode(PropertyListPlayBody.self, from: body)
        } catch let error as WireFieldError {
            throw ProtocolError("\(error.key) in the /play property list is not \(error.expected)")
        } catch {
            throw ProtocolError("the /play body is not a property list dictionary")
        }
        var request: PlayRequest
        if let order = plist.airlabOrder {
            // airlab's sender on the AirPlay 2 path: its order carries what the standard keys cannot.
            request = try fromJSON(order)
            request.sessionID = plist.uuid ?? request.sessionID
        } else {
            request = try make(
                location: plist.contentLocation, fraction: plist.startPosition?.value(named: "Start-Position"),
                seconds: plist.startPositionSeconds?.value(named: "Start-Position-Seconds"), sessionID: plist.uuid ?? plist.sessionID)
        }
        request.restrictions = try SenderRestrictions(
            playback: plist.playbackRestrictions.map { number throws(ProtocolError) in try flags(number, "playbackRestrictions") },
            reference: plist.referenceRestrictions.map { number throws(ProtocolError) in try flags(number, "referenceRestrictions") })
        return request
    }

    private static func fromJSON(_ body: Data) throws(ProtocolError) -> PlayRequest {
        let order: PlayOrder
        do {
            order = try WireJSON.decoder.decode(PlayOrder.self, from: body)
        } catch let error as WireFieldError {
            throw ProtocolError("\(error.key) in the /play JSON is not \(error.expected)")
        } catch {
            throw ProtocolError("the /play body is not a JSON object")
        }
        var request = try make(location: order.url, fraction: nil, seconds: order.start, sessionID: order.sessionID)
        request.isAirlabOrder = true
        if let events = order.interstitialEvents {
            do throws(ClientEvents.Failure) {
                request.clientEvents = try ClientEvents(events)
            } catch {
                throw ProtocolError("interstitialEvents \(error)")
            }
        }
        request.automaticallyHandlesInterstitialEvents = order.automaticallyHandlesInterstitialEvents
        request.detached = order.detached
        request.preferredLanguage = order.audioLanguage
        request.seed = order.seed
        if let breaks = order.sdkAdBreaks {
            do throws(SDKAdSchedule.Failure) {
                request.sdkAds = try SDKAdSchedule(breaks)
            } catch {
                throw ProtocolError("sdkAdBreaks in the /play JSON: \(error)")
            }
        }
        request.sdkAdInPictureInPicture = order.sdkAdInPictureInPicture ?? .skip
        if let join = order.group { request.group = try GroupMembershipRequest(join) }
        if let text = order.script {
            do throws(SenderScript.SyntaxError) {
                request.script = try SenderScript(parsing: text)
            } catch {
                throw ProtocolError("script in the /play JSON: \(error)")
            }
        }
        return request
    }

    private static func make(location: String?, fraction: Double?, seconds: Double?, sessionID: String?) throws(ProtocolError) -> PlayRequest {
        guard let location, !location.isEmpty else {
            throw ProtocolError("the /play request names no content (Content-Location, or url in JSON)")
        }
        var request = PlayRequest(contentLocation: location)
        if let seconds {
            guard seconds >= 0 else { throw ProtocolError("the start position \(seconds) is negative") }
            request.start = .seconds(seconds)
        } else if let fraction {
            guard (0...1).contains(fraction) else {
                throw ProtocolError("Start-Position \(fraction) is not a fraction from 0 to 1 (use Start-Position-Seconds for seconds)")
            }
            request.start = .fraction(fraction)
        }
        request.sessionID = sessionID
        return request
    }

    /// A restriction word: a whole number from 0 to 2^32 - 1, or a 400 naming the field.
    private static func flags(_ number: PropertyListPlayBody.Number, _ field: String) throws(ProtocolError) -> UInt32 {
        let value = try number.value(named: field)
        guard value >= 0, value <= Double(UInt32.max), value.rounded() == value else {
            throw ProtocolError("\(field) \(value) is not a whole number from 0 to \(UInt32.max)")
        }
        return UInt32(value)
    }

    /// A finite number, or a 400 naming the field.
    static func number(_ text: String, _ field: String) throws(ProtocolError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw ProtocolError("\(field) '\(text)' is not a number")
        }
        return value
    }

    init(contentLocation: String) {
        self.contentLocation = contentLocation
    }
}

/// The property list legacy senders `/play` with: the text/parameters keys, numbers as numbers or text.
///
/// The same keys are what airlab's sender writes on the AirPlay 2 path (`PlayOrder.airPlay2Body`), the
/// ones pyatv writes for a cast by URL, with airlab's own JSON order under `airlabOrder` so an airlab
/// receiver plays it with the extensions a real receiver ignores.
struct PropertyListPlayBody: Codable {
    /// A plist number, or text holding one (some senders write `<string>0.5</string>`).
    struct Number: Codable {
        var number: Double?
        var text: String?

        init(_ number: Double) {
            self.number = number
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let number { try container.encode(number) } else { try container.encode(text ?? "") }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self.number = number
            } else {
                text = try container.decode(String.self)
            }
        }

        func value(named name: String) throws(ProtocolError) -> Double {
            if let number { return number }
            return try PlayRequest.number(text ?? "", name)
        }
    }

    var contentLocation: String?
    var startPosition: Number?
    var startPositionSeconds: Number?
    var uuid: String?
    var sessionID: String?
    var playbackRestrictions: Number?
    var referenceRestrictions: Number?
    /// Written by airlab's sender; a receiver reads only `airlabOrder` of them.
    var streamType: Int?
    var mediaType: String?
    var rate: Double?
    /// airlab's JSON order (`PlayOrder`), as bytes.
    var airlabOrder: Data?

    enum CodingKeys: String, CodingKey {
        case contentLocation = "Content-Location", startPosition = "Start-Position", startPositionSeconds = "Start-Position-Seconds"
        case uuid, sessionID = "X-Apple-Session-ID", playbackRestrictions, referenceRestrictions
        case streamType, mediaType, rate, airlabOrder
    }

    init(contentLocation: String, startSeconds: Double, uuid: String, order: Data) {
        self.contentLocation = contentLocation
        startPositionSeconds = Number(startSeconds)
        self.uuid = uuid
        // What pyatv sends for a cast by URL: a file, played at once, no restrictions asked, 3 for
        // the reference words (their bits are not published).
        streamType = 1
        mediaType = "file"
        rate = 1
        playbackRestrictions = Number(0)
        referenceRestrictions = Number(3)
        airlabOrder = order
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contentLocation = try container.wireField(.contentLocation, expected: "the playlist's URL as text")
        startPosition = try container.wireField(.startPosition, expected: "a number")
        startPositionSeconds = try container.wireField(.startPositionSeconds, expected: "a number")
        uuid = try container.wireField(.uuid, expected: "text")
        sessionID = try container.wireField(.sessionID, expected: "text")
        playbackRestrictions = try container.wireField(.playbackRestrictions, expected: "a number")
        referenceRestrictions = try container.wireField(.referenceRestrictions, expected: "a number")
        airlabOrder = try container.wireField(.airlabOrder, expected: "airlab's JSON order as data")
    }

    /// The body as a binary property list.
    func propertyList() -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// A `GroupJoin` read and checked: where the group's host is, and the participant's wishes.
public struct GroupMembershipRequest: Sendable {
    public var host: String
    public var port: UInt16
    public var groupID: String
    public var participant: String
    public var contentID: String?
    public var selector: StitchedSelector?
    public var policy: GroupPolicy?
    public var adFree: Bool
    init(_ join: GroupJoin) throws(ProtocolError) {
        guard let url = URL(string: join.url), url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw ProtocolError("group.url '\(join.url.prefix(200))' is not an http URL of a group, such as http://127.0.0.1:7000/groups/g1")
        }
        guard case .group(let id)? = GroupPath(path: url.path), GroupCreation.isValidName(id) else {
            throw ProtocolError("group.url '\(join.url.prefix(200))' does not name a group: its path must be /groups/ID")
        }
        if let refusal = GroupCreation.nameRefusal("group.participant", join.participant) { throw ProtocolError(refusal) }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = UInt16(exactly: url.port ?? 80) ?? 80
        groupID = id
        participant = join.participant
        contentID = join.contentID
        if let text = join.stitched {
            do throws(StitchedSelector.SyntaxError) {
                selector = try StitchedSelector(argument: text)
            } catch {
                throw ProtocolError("group.stitched '\(text.prefix(200))': \(error.reason)")
            }
        }
        policy = join.policy
        adFree = join.adFree ?? false
        if let refusal = GroupCreation.limitsRefusal(policy, field: "group.policy.participantLimits") { throw ProtocolError(refusal) }
    }
}
