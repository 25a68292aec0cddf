import Emulation
import Foundation

/// `POST /play`, read in every form senders use (DESIGN.md §3).
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

    /// The body forms, as `Content-Type` names them or as their first bytes show.
    public enum BodyForm: Sendable {
        case parameters, plist, json
    }

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
        guard let object = try? PropertyListSerialization.propertyList(from: body, format: nil),
            let plist = object as? [String: Any]
        else {
            throw ProtocolError("the /play body is not a property list dictionary")
        }
        func value(_ key: String) throws(ProtocolError) -> Double? {
            switch plist[key] {
            case nil: return nil
            case let number as NSNumber: return number.doubleValue
            case let text as String: return try number(text, key)
            default: throw ProtocolError("\(key) in the /play property list is not a number")
            }
        }
        return try make(
            location: plist["Content-Location"] as? String, fraction: value("Start-Position"), seconds: value("Start-Position-Seconds"),
            sessionID: plist["uuid"] as? String ?? plist["X-Apple-Session-ID"] as? String)
    }

    private static func fromJSON(_ body: Data) throws(ProtocolError) -> PlayRequest {
        guard let object = try? JSONSerialization.jsonObject(with: body), let json = object as? [String: Any] else {
            throw ProtocolError("the /play body is not a JSON object")
        }
        let start: Double?
        switch json["start"] {
        case nil, is NSNull: start = nil
        case let number as NSNumber: start = number.doubleValue
        default: throw ProtocolError("start in the /play JSON is not a number of seconds")
        }
        var request = try make(location: json["url"] as? String, fraction: nil, seconds: start, sessionID: json["sessionID"] as? String)
        if let events = json["interstitialEvents"] {
            guard JSONSerialization.isValidJSONObject(events), let data = try? JSONSerialization.data(withJSONObject: events) else {
                throw ProtocolError("interstitialEvents in the /play JSON is not an array of events")
            }
            do throws(ClientEvents.Failure) {
                request.clientEvents = try ClientEvents(parsing: data)
            } catch {
                throw ProtocolError("interstitialEvents \(error)")
            }
        }
        if let automatic = json["automaticallyHandlesInterstitialEvents"] as? Bool { request.automaticallyHandlesInterstitialEvents = automatic }
        if let detached = json["detached"] as? Bool { request.detached = detached }
        request.preferredLanguage = json["audioLanguage"] as? String
        switch json["seed"] {
        case nil, is NSNull: break
        case let number as NSNumber where number.doubleValue >= 0 && number.doubleValue.rounded() == number.doubleValue:
            request.seed = number.uint64Value
        default: throw ProtocolError("seed in the /play JSON is not a whole number from 0")
        }
        if let text = json["script"] as? String {
            do throws(SenderScript.SyntaxError) {
                request.script = try SenderScript(parsing: text)
            } catch {
                throw ProtocolError("script in the /play JSON: \(error)")
            }
        } else if json["script"] != nil, !(json["script"] is NSNull) {
            throw ProtocolError("script in the /play JSON is not text such as \"at 3 seek 40; at 12 pause\"")
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
