import Cryptography
import Foundation

/// A sender's side of pairing, kept in a folder (the user's config folder, `airlab pair`): its own
/// long-term identity, which every receiver it pairs with stores, and one credential per receiver it
/// paired with, by the receiver's device ID. Files of mode 0600, written whole.
public final class SenderPairings: Sendable {
    /// What pairing with one receiver left: enough to verify it on a later connection.
    public struct Credential: Codable, Equatable, Sendable {
        /// The receiver's device ID (`deviceid`), the key it is found by.
        public var receiver: String
        /// The accessory identifier and long-term public key the receiver sent in M6.
        public var accessoryIdentifier: String
        public var accessoryPublicKey: String
        /// When, in ISO 8601.
        public var pairedAt: String

        public init(receiver: String, accessory: PairedPeer, pairedAt: Date) {
            self.receiver = receiver
            accessoryIdentifier = accessory.identifier
            accessoryPublicKey = PairingFiles.hex(accessory.publicKey.rawBytes)
            self.pairedAt = ISO8601DateFormatter().string(from: pairedAt)
        }

        /// The accessory as pair-verify checks it.
        public func accessory() throws -> PairedPeer {
            guard let bytes = PairingFiles.bytes(hex: accessoryPublicKey) else {
                throw PairingFileError(file: receiver, reason: "has an accessory key that is not hex")
            }
            return PairedPeer(identifier: accessoryIdentifier, publicKey: try Ed25519PublicKey(rawBytes: bytes))
        }
    }

    public let folder: URL
    public let identity: PairingIdentity

    /// Reads the folder, making it and the sender's identity the first time.
    public init(folder: URL) throws {
        self.folder = folder
        let loaded = try DeviceIdentityFile.loadOrCreate(in: folder, identifier: "")
        // The identifier receivers store the sender under: stable with the key, readable in their lists.
        let identifier = "airlab-" + PairingFiles.hex(Array(loaded.key.publicKey.rawBytes.prefix(6)))
        identity = PairingIdentity(identifier: identifier, key: loaded.key)
    }

    private var credentials: URL { folder.appendingPathComponent("receivers", isDirectory: true) }

    private func file(for receiver: String) -> URL {
        let name = receiver.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(String.init).joined()
        return credentials.appendingPathComponent((name.isEmpty ? "receiver" : name) + ".json")
    }

    public func credential(for receiver: String) throws -> Credential? {
        let file = file(for: receiver)
        guard let data = try PairingFiles.read(file, maximum: 4096) else { return nil }
        do {
            return try JSONDecoder().decode(Credential.self, from: data)
        } catch {
            throw PairingFileError(file: file.path, reason: "is not a pairing credential")
        }
    }

    public func store(_ credential: Credential) throws {
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try PairingFiles.write(try encoder.encode(credential), to: file(for: credential.receiver))
    }

    /// Forgets a receiver; false when it was not paired.
    public func remove(_ receiver: String) throws -> Bool {
        let file = file(for: receiver)
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        try FileManager.default.removeItem(at: file)
        return true
    }

    /// Every receiver paired with, by device ID.
    public func list() throws -> [Credential] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: credentials.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            guard let data = try PairingFiles.read(credentials.appendingPathComponent(name), maximum: 4096) else { return nil }
            return try? JSONDecoder().decode(Credential.self, from: data)
        }
    }
}
