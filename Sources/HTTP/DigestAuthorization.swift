import Foundation

/// The client's half of HTTP Digest authentication (RFC 7616 with MD5, as AirPlay receivers use it):
/// read a `WWW-Authenticate: Digest …` challenge, answer it with an `Authorization` header.
public struct DigestChallenge: Sendable, Equatable {
    public var realm: String
    public var nonce: String
    public var opaque: String?
    /// `auth` when the server offers it; nil for the RFC 2069 form without a quality of protection.
    public var qop: String?

    /// Reads the parameters of a `Digest` challenge; nil for another scheme or one without realm and nonce.
    public init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("digest ") else { return nil }
        let parameters = Self.parameters(String(trimmed.dropFirst("digest ".count)))
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { return nil }
        if let algorithm = parameters["algorithm"], algorithm.uppercased() != "MD5" { return nil }
        self.realm = realm
        self.nonce = nonce
        opaque = parameters["opaque"]
        let offered = parameters["qop"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? []
        qop = offered.contains("auth") ? "auth" : nil
    }

    /// The `Authorization` header value for one request.
    ///
    /// - Parameters:
    ///   - uri: the request target as sent on the request line.
    ///   - clientNonce: a fresh random value per request (tests pass a fixed one).
    public func authorization(
        method: String, uri: String, username: String, password: String, clientNonce: String, count: Int = 1
    ) -> String {
        let first = DigestHash.md5Hex("\(username):\(realm):\(password)")
        let second = DigestHash.md5Hex("\(method):\(uri)")
        let nc = String(count, radix: 16).leftPadded(to: 8)
        let response = qop.map { DigestHash.md5Hex("\(first):\(nonce):\(nc):\(clientNonce):\($0):\(second)") }
            ?? DigestHash.md5Hex("\(first):\(nonce):\(second)")
        var fields = [
            "username=\"\(username)\"", "realm=\"\(realm)\"", "nonce=\"\(nonce)\"", "uri=\"\(uri)\"", "response=\"\(response)\"",
        ]
        if let qop { fields += ["qop=\(qop)", "nc=\(nc)", "cnonce=\"\(clientNonce)\""] }
        if let opaque { fields.append("opaque=\"\(opaque)\"") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// `name=value` and `name="quoted, value"` pairs separated by commas.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\" { rest = rest.dropFirst() }
                    if let next = rest.first { value.append(next) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            result[name] = value
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
