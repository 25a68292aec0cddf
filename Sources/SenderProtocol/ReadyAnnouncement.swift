/// What `airlabd` prints on stdout once it serves, for whoever started it (a lab run, a test, an
/// operator's script): one line per receiver, then `airlabd: ready`. Written and read here only, so
/// the daemon and its readers cannot drift apart.
public enum ReadyAnnouncement {
    public static let ready = "airlabd: ready"

    /// `airlabd: receiver "NAME" profile PROFILE listening on http://HOST:PORT`
    public static func receiverLine(name: String, profile: String, host: String, port: UInt16) -> String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "airlabd: receiver \"\(name)\" profile \(profile) listening on http://\(authority)"
    }

    /// `airlabd: metrics for the process on http://HOST:PORT/metrics`, before `ready` when
    /// `--metrics-address` is given: with port 0 it says which port was picked.
    public static func metricsLine(host: String, port: UInt16) -> String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "\(metricsPrefix)\(authority)/metrics"
    }

    /// The `HOST:PORT` of a metrics line; nil for any other line.
    public static func metrics(in line: String) -> String? {
        guard line.hasPrefix(metricsPrefix), line.hasSuffix("/metrics") else { return nil }
        return String(line.dropFirst(metricsPrefix.count).dropLast("/metrics".count))
    }

    private static let metricsPrefix = "airlabd: metrics for the process on http://"

    /// `airlabd: console for the process on http://HOST:PORT/console`, before `ready` when the console is
    /// served (on `--metrics-address` or `--console`).
    public static func consoleLine(host: String, port: UInt16) -> String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "\(consolePrefix)\(authority)/console"
    }

    /// The console's URL of a console line; nil for any other line.
    public static func console(in line: String) -> String? {
        guard line.hasPrefix(consolePrefix), line.hasSuffix("/console") else { return nil }
        return "http://" + line.dropFirst(consolePrefix.count)
    }

    private static let consolePrefix = "airlabd: console for the process on http://"

    /// The name, profile and `HOST:PORT` of a receiver line; nil for any other line. The name may hold
    /// anything, quotes included: it is what lies between the first quote and the last `" profile `.
    public static func receiver(in line: String) -> (name: String, profile: String, authority: String)? {
        let prefix = "airlabd: receiver \""
        guard line.hasPrefix(prefix), let marker = line.range(of: "\" profile ", options: .backwards),
            let listening = line.range(of: " listening on http://", options: .backwards), marker.upperBound <= listening.lowerBound
        else { return nil }
        let name = String(line[line.index(line.startIndex, offsetBy: prefix.count)..<marker.lowerBound])
        let profile = String(line[marker.upperBound..<listening.lowerBound])
        var authority = String(line[listening.upperBound...]).trimmingCharacters(in: .whitespaces)
        if authority.hasSuffix("/") { authority.removeLast() }
        return (name, profile, authority)
    }
}
