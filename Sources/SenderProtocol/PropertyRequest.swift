import Foundation
import JSONDocument
import Playback

/// `PUT /setProperty?NAME` bodies. Senders send a property list `{"value": …}`; airlab's own tools
/// may send JSON, either the bare value or the same `{"value": …}` wrapper.
public enum PropertyRequest {
    /// `setProperty?interstitialEvents`: an array of events in AVPlayerInterstitialEvent's shape.
    public static func interstitialEvents(body: Data, contentType: String?) throws(ProtocolError) -> ClientEvents {
        let value = try self.value(body: body, contentType: contentType, property: .interstitialEvents).value
        do throws(ClientEvents.Failure) {
            return try ClientEvents(value)
        } catch {
            throw ProtocolError("interstitialEvents \(error)")
        }
    }

    /// `setProperty?automaticallyHandlesInterstitialEvents`: true or false. JSON is read with its
    /// types, so `1` is refused; a property list may also say `<integer>1</integer>` or 0, as legacy
    /// senders write booleans there.
    public static func flag(body: Data, contentType: String?, property: SettableProperty) throws(ProtocolError) -> Bool {
        let read = try value(body: body, contentType: contentType, property: property)
        switch read.value {
        case .bool(let flag): return flag
        case .number(let number) where read.isPropertyList && (number == 0 || number == 1): return number == 1
        default: throw ProtocolError("\(property.rawValue) must be true or false")
        }
    }

    /// AVPlayer.ActionAtItemEnd: 0 advance, 1 pause, 2 none.
    public static func actionAtItemEnd(body: Data, contentType: String?) throws(ProtocolError) -> Int {
        let read = try value(body: body, contentType: contentType, property: .actionAtItemEnd)
        guard case .number(let number) = read.value, [0, 1, 2].contains(number) else {
            throw ProtocolError("actionAtItemEnd must be 0 (advance), 1 (pause) or 2 (none)")
        }
        return Int(number)
    }

    /// `forwardEndTime` and `reverseEndTime`: a CMTime dictionary; the invalid time means none.
    public static func endTime(body: Data, contentType: String?, property: SettableProperty) throws(ProtocolError) -> MediaTime {
        let read = try value(body: body, contentType: contentType, property: property)
        return try MediaTime(read.value, name: property.rawValue)
    }

    /// `selectedMediaArray`: the media selections the sender made, an array of dictionaries.
    public static func mediaSelections(body: Data, contentType: String?) throws(ProtocolError) -> Int {
        let read = try value(body: body, contentType: contentType, property: .selectedMediaArray)
        guard case .array(let items) = read.value, items.allSatisfy({ if case .object = $0 { true } else { false } }) else {
            throw ProtocolError("selectedMediaArray must be an array of dictionaries")
        }
        return items.count
    }

    /// `setProperty?presentationMode`: `standard`, `pictureInPicture` (or `pip`) or `external`, as the
    /// value itself or as `{"mode": …}`, in a property list or JSON.
    public static func presentationMode(body: Data, contentType: String?) throws(ProtocolError) -> PresentationMode {
        var read = try value(body: body, contentType: contentType, property: .presentationMode).value
        if case .object(let members) = read, let mode = members["mode"], members.count == 1 { read = mode }
        guard case .string(let name) = read, let mode = PresentationMode(wireName: name) else {
            throw ProtocolError("presentationMode must be standard, pictureInPicture (or pip) or external")
        }
        return mode
    }

    /// The property's value: the `value` member of a dictionary, or the document itself.
    private static func value(body: Data, contentType: String?, property: SettableProperty) throws(ProtocolError) -> (value: JSONValue, isPropertyList: Bool) {
        let name = property.rawValue
        guard !body.isEmpty else { throw ProtocolError("setProperty?\(name) has no body") }
        switch PlayRequest.form(of: body, contentType: contentType) {
        case .plist:
            guard let document = try? PropertyListInput.decode(PropertyBody.self, from: body) else {
                throw ProtocolError("the setProperty?\(name) body is not a property list")
            }
            return (document.value, true)
        case .json, .parameters:
            guard let document = try? WireJSON.decoder.decode(PropertyBody.self, from: body) else {
                throw ProtocolError("the setProperty?\(name) body is neither a property list nor JSON")
            }
            return (document.value, false)
        }
    }
}

/// A `setProperty` body: `{"value": V}`, or V itself.
struct PropertyBody: Decodable {
    var value: JSONValue

    enum CodingKeys: String, CodingKey { case value }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self), container.contains(.value) {
            value = try container.decode(JSONValue.self, forKey: .value)
        } else {
            value = try decoder.singleValueContainer().decode(JSONValue.self)
        }
    }
}
