import Foundation

/// Which discovered receivers a lab run uses: `all` of airlab's, or a comma-separated list of names.
public enum ReceiverSelection {
    /// The receivers `choice` names, in its order, and the names nothing answered to.
    ///
    /// `all` takes every airlab receiver (a TXT record naming a profile): other AirPlay devices on the
    /// network do not speak airlab's JSON `/play` and would only fail the run. Names match exactly,
    /// then ignoring case.
    public static func select(_ choice: String, from found: [Receiver]) -> (chosen: [Receiver], missing: [String]) {
        if choice.trimmingCharacters(in: .whitespaces).lowercased() == "all" {
            return (found.filter(\.isAirlab), [])
        }
        var chosen: [Receiver] = []
        var missing: [String] = []
        for name in choice.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if let receiver = found.first(where: { $0.name == name }) ?? found.first(where: { $0.name?.lowercased() == name.lowercased() }) {
                if !chosen.contains(receiver) { chosen.append(receiver) }
            } else {
                missing.append(name)
            }
        }
        return (chosen, missing)
    }
}
