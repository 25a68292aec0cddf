import Foundation

/// Property-list values on their way to JSON, in both directions of the property routes.
enum PropertyListValue {
    /// Property lists carry dates and data, which JSON cannot: dates become ISO 8601 text (as the
    /// events' `date` member expects), data becomes base64.
    static func jsonCompatible(_ value: Any) -> Any {
        switch value {
        case let dictionary as [String: Any]: return dictionary.mapValues(jsonCompatible)
        case let array as [Any]: return array.map(jsonCompatible)
        case let date as Date: return ISO8601DateFormatter().string(from: date)
        case let data as Data: return data.base64EncodedString()
        default: return value
        }
    }
}
