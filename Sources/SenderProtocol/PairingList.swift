import Foundation

/// `GET /pairings`: the controllers an AirPlay 2 receiver has paired with by PIN, as JSON. Asked on a
/// connection pair-verify encrypted for an admin controller, as HAP lets only admins list and remove
/// pairings; `DELETE /pairings/ID` removes one.
public struct PairingList: Sendable, Equatable, Codable {
    public struct Controller: Sendable, Equatable, Codable {
        public var identifier: String
        /// The controller's Ed25519 public key in hex.
        public var publicKey: String
        public var admin: Bool

        public init(identifier: String, publicKey: [UInt8], admin: Bool) {
            self.identifier = identifier
            self.publicKey = ReceiverIdentity.hex(publicKey)
            self.admin = admin
        }
    }

    public var controllers: [Controller]

    public init(controllers: [Controller]) {
        self.controllers = controllers
    }

    /// The path that removes `identifier`.
    public static func target(removing identifier: String) -> String {
        "/pairings/" + (identifier.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? identifier)
    }
}
