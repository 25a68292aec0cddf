import Foundation
import HTTP
import Synchronization

/// A password and the Digest challenges a receiver has made (user `AirPlay`, as AirPlay receivers ask).
///
/// libmicrohttpd binds each nonce to a method and path, so challenges are kept per `METHOD /path`:
/// once one is known, every request of that kind carries its answer, counting requests per nonce as
/// the scheme requires. A 401 brings a new challenge, which the request that met it repeats with.
final class DigestCredentials: Sendable {
    static let user = "AirPlay"

    let password: String
    private let challenges = Mutex<[String: (challenge: DigestChallenge, count: Int)]>([:])

    init?(password: String?) {
        guard let password else { return nil }
        self.password = password
    }

    /// Adds the answer to the challenge known for the request's method and path, if one is known.
    func authorize(_ request: inout HTTPClientRequest) {
        let key = Self.key(of: request)
        let known = challenges.withLock { challenges -> (DigestChallenge, Int)? in
            guard let entry = challenges[key] else { return nil }
            challenges[key]?.count += 1
            return (entry.challenge, entry.count + 1)
        }
        guard let (challenge, count) = known else { return }
        request.headers.set("Authorization", challenge.authorization(
            method: request.method, uri: request.target, username: Self.user, password: password,
            clientNonce: Self.clientNonce(), count: count))
    }

    /// Remembers the challenge `response` carries for `request`'s kind; false unless it is a 401 with one.
    @discardableResult
    func learn(from response: HTTPClientResponse, for request: HTTPClientRequest) -> Bool {
        guard response.status == 401,
            let challenge = response.headers.values(for: "WWW-Authenticate").lazy.compactMap(DigestChallenge.init(header:)).first
        else { return false }
        challenges.withLock { $0[Self.key(of: request)] = (challenge, 0) }
        return true
    }

    /// `request` again, answering the challenge `response` carries; nil unless it is a 401 with one.
    func answering(_ response: HTTPClientResponse, to request: HTTPClientRequest) -> HTTPClientRequest? {
        guard learn(from: response, for: request) else { return nil }
        var retry = request
        authorize(&retry)
        return retry
    }

    private static func key(of request: HTTPClientRequest) -> String {
        request.method + " " + (request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target)
    }

    private static func clientNonce() -> String {
        (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16) }.joined()
    }
}
