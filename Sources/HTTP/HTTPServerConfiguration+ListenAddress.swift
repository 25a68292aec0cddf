import Foundation

extension HTTPServerConfiguration {
    /// Reads `HOST:PORT` or `[IPV6]:PORT` for a server to listen on (`airlabd --metrics-address`,
    /// `--console`, `airlab console --listen`), port 0 picking a free one; nil otherwise, and nil for a
    /// host that is not a numeric address.
    public static func listenAddress(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil
        }
        // Numeric only, checked here: a name found out at start would be a fleet started for nothing.
        var v4 = in_addr()
        var v6 = in6_addr()
        guard inet_pton(AF_INET, String(host), &v4) == 1 || inet_pton(AF_INET6, String(host), &v6) == 1 else { return nil }
        return (String(host), port)
    }
}
