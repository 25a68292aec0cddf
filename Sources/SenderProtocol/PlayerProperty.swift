/// A property `/setProperty?NAME` or `/getProperty?NAME` names, spelled as AVFoundation's members
/// (AVPlayer, AVPlayerItem, AVPlayerInterstitialEventMonitor) are. The route's query is one name
/// and nothing else.
public protocol PlayerProperty: RawRepresentable<String>, CaseIterable, Sendable {
    /// The route that takes these names.
    static var route: Route { get }
}

extension PlayerProperty {
    /// The one property a request's query names (`?interstitialEvents`).
    public init(query: [String: String]) throws(ProtocolError) {
        let names = Self.allCases.map(\.rawValue)
        guard query.count == 1, let name = query.keys.first else {
            throw ProtocolError("\(Self.route.rawValue) needs one property name, such as ?\(names[0])")
        }
        guard let property = Self(rawValue: name) else {
            throw ProtocolError("\(Self.route.rawValue.dropFirst()) knows \(names.dropLast().joined(separator: ", ")) and \(names.last ?? ""), not '\(name)'")
        }
        self = property
    }

    /// The path and query that name it.
    public var path: String { Self.route.rawValue + "?" + rawValue }
}

/// What `/setProperty` changes.
public enum SettableProperty: String, PlayerProperty {
    case presentationMode
    case interstitialEvents
    case automaticallyHandlesInterstitialEvents
    /// What AirPlay 2 senders set after `/play` (pyatv, iOS); read and checked, not played yet.
    case isInterestedInDateRange
    case actionAtItemEnd
    case forwardEndTime
    case reverseEndTime
    case selectedMediaArray

    public static let route = Route.setProperty
}

/// What `/getProperty` answers.
public enum ReadableProperty: String, PlayerProperty {
    case interstitialEvents
    case playbackAccessLog
    case playbackErrorLog

    public static let route = Route.getProperty
}
