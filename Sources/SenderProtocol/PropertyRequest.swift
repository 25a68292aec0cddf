import Emulation
import Foundation

/// `PUT /setProperty?NAME` bodies. Senders send a property list `{"value": …}`; airlab's own tools
/// may send JSON, either the bare value or the same `{"value": …}` wrapper.
public enum PropertyRequest {
    /// `setProperty?interstitialEvents`: an array of events in AVPlayerInterstitialEvent's shape.
    public static func interstitialEvents(body: Data, contentType: String?) throws(ProtocolError) -> ClientEvents {
        let value = try self.value(body: body, contentType: contentType, name: "interstitialEvents")
        guard let json = try? JSONSerialization.data(withJSONObject: PropertyListValue.jsonCompatible(value)) else {
            throw ProtocolError("interstitialEvents is not an array of events")
        }
        do throws(ClientEvents.Failure) {
            return try ClientEvents(parsing: json)
        } catch {
            throw ProtocolError("interstitialEvents \(error)")
        }
    }

    /// `setProperty?automaticallyHandlesInterstitialEvents`: true or false.
    public static func flag(body: Data, contentType: String?, name: String) throws(ProtocolError) -> Bool {
        let value = try self.value(body: body, contentType: contentType, name: name)
        // NSNumber bridges booleans and numbers alike; 0 and 1 are what some senders write.
        guard let number = value as? NSNumber, number == 0 || number == 1 else {
            throw ProtocolError("\(name) must be true or false")
        }
        return number.boolValue
    }

    /// The property's value: the `value` member of a dictionary, or the document itself.
    private static func value(body: Data, contentType: String?, name: String) throws(ProtocolError) -> Any {
        guard !body.isEmpty else { throw ProtocolError("setProperty?\(name) has no body") }
        let document: Any
        switch PlayRequest.form(of: body, contentType: contentType) {
        case .plist:
            guard let plist = try? PropertyListSerialization.propertyList(from: body, format: nil) else {
                throw ProtocolError("the setProperty?\(name) body is not a property list")
            }
            document = plist
        case .json, .parameters:
            guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                throw ProtocolError("the setProperty?\(name) body is neither a property list nor JSON")
            }
            document = json
        }
        if let dictionary = document as? [String: Any], let value = dictionary["value"] { return value }
        return document
    }
}
