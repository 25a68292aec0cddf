/// HTTP Digest credentials a server asks of every request outside `exemptPaths`.
///
/// libmicrohttpd checks the `Authorization` header (MD5, `qop=auth`) and writes the
/// `WWW-Authenticate` challenge. Its nonces mix in a random value drawn when the server starts, so a
/// nonce from another run is answered as stale; they are also bound to the request's method and path,
/// so a client pays one extra challenge (`stale=true`) per new path. Legacy AirPlay receivers use
/// realm and user `AirPlay`, with the password the user set on the device.
///
/// It keeps out senders that do not know the password, no more: over plain HTTP the requests are
/// readable, and libmicrohttpd 0.9.75 hands out the same nonce again for the same method and path
/// within one second and restarts its count, so a captured header can be replayed in that second.
public struct DigestAuthentication: Sendable, Equatable {
    public var realm: String
    public var username: String
    public var password: String
    /// Paths answered without credentials, compared with the request's decoded path exactly (no
    /// query): senders ask `/server-info` before they know a password is needed, and monitoring
    /// scrapes `/metrics` without one.
    public var exemptPaths: Set<String>

    public init(realm: String = "AirPlay", username: String = "AirPlay", password: String, exemptPaths: Set<String> = []) {
        self.realm = realm
        self.username = username
        self.password = password
        self.exemptPaths = exemptPaths
    }

    /// Whether a request for `path` must carry valid credentials.
    public func protects(_ path: String) -> Bool {
        !exemptPaths.contains(path)
    }
}
