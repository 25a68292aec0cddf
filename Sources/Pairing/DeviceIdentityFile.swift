import Cryptography
import Foundation

/// The receiver's long-term Ed25519 key, kept in `pairing-identity.key` in a folder (the seed as hex,
/// mode 0600), so its `pk` and the pairings made with it survive restarts.
public enum DeviceIdentityFile {
    public static let fileName = "pairing-identity.key"

    /// The identity with the key in `folder`, made and written first when there is none.
    public static func loadOrCreate(in folder: URL, identifier: String) throws -> PairingIdentity {
        let file = folder.appendingPathComponent(fileName)
        if let data = try PairingFiles.read(file, maximum: 256) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let seed = PairingFiles.bytes(hex: text), seed.count == 32 else {
                throw PairingFileError(file: file.path, reason: "does not hold a 32-byte key as 64 hex digits")
            }
            return PairingIdentity(identifier: identifier, key: try Ed25519PrivateKey(rawBytes: seed))
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = try Ed25519PrivateKey()
        try PairingFiles.write(Data((PairingFiles.hex(key.rawBytes) + "\n").utf8), to: file)
        return PairingIdentity(identifier: identifier, key: key)
    }
}
