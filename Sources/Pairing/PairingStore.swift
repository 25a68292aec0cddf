import Cryptography
import Foundation
import Synchronization

/// A controller that completed PIN pair-setup: who it is, its key, and whether it may manage pairings.
public struct PairedController: Sendable, Equatable, Codable {
    public let identifier: String
    public let publicKey: Ed25519PublicKey
    public let isAdmin: Bool

    public init(identifier: String, publicKey: Ed25519PublicKey, isAdmin: Bool) {
        self.identifier = identifier
        self.publicKey = publicKey
        self.isAdmin = isAdmin
    }

    private enum CodingKeys: String, CodingKey { case identifier, publicKey, permissions }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        let hex = try container.decode(String.self, forKey: .publicKey)
        guard let bytes = PairingFiles.bytes(hex: hex), let key = try? Ed25519PublicKey(rawBytes: bytes) else {
            throw DecodingError.dataCorruptedError(forKey: .publicKey, in: container, debugDescription: "not a 32-byte key in hex")
        }
        publicKey = key
        isAdmin = try container.decode(UInt8.self, forKey: .permissions) & 1 == 1
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(PairingFiles.hex(publicKey.rawBytes), forKey: .publicKey)
        // HAP's permissions byte: bit 0 is admin.
        try container.encode(UInt8(isAdmin ? 1 : 0), forKey: .permissions)
    }
}

/// The controllers paired with this receiver, in `paired-controllers.json` in a folder (mode 0600),
/// written whole on every change, or in memory only for a receiver without a state folder. Safe to share between threads; `publicKey(for:)` is what
/// `PairVerifyServer` looks controllers up with.
public final class PairingStore: Sendable {
    public static let fileName = "paired-controllers.json"
    /// HAP's limit on pairings (kTLVError_MaxPeers beyond it).
    public static let maximumControllers = 16

    private struct Document: Codable {
        var controllers: [PairedController]
    }

    /// nil: kept in memory for the process.
    private let file: URL?
    private let controllers: Mutex<[PairedController]>

    /// A store in memory only: the pairings last as long as the process.
    public init() {
        file = nil
        controllers = Mutex([])
    }

    /// The store of `folder`, read from its file when there is one.
    public init(folder: URL) throws {
        let file = folder.appendingPathComponent(Self.fileName)
        self.file = file
        var loaded: [PairedController] = []
        if let data = try PairingFiles.read(file, maximum: 64 * 1024) {
            do {
                loaded = try JSONDecoder().decode(Document.self, from: data).controllers
            } catch {
                throw PairingFileError(file: file.path, reason: "is not a pairing list: \(error)")
            }
            guard loaded.count <= Self.maximumControllers else {
                throw PairingFileError(file: file.path, reason: "lists \(loaded.count) controllers, over \(Self.maximumControllers)")
            }
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        controllers = Mutex(loaded)
    }

    /// Every paired controller, in the order they paired.
    public func list() -> [PairedController] { controllers.withLock { $0 } }

    public func publicKey(for identifier: String) -> Ed25519PublicKey? {
        controllers.withLock { list in list.first { $0.identifier == identifier }?.publicKey }
    }

    /// Adds `controller`, or replaces the one of the same identifier; throws when the store is full.
    public func add(_ controller: PairedController) throws {
        try change { list in
            if let index = list.firstIndex(where: { $0.identifier == controller.identifier }) {
                list[index] = controller
            } else {
                guard list.count < Self.maximumControllers else {
                    throw PairingFileError(file: file?.path ?? "the pairing list", reason: "already holds \(Self.maximumControllers) controllers")
                }
                list.append(controller)
            }
        }
    }

    /// Removes the controller `identifier`; false when it was not paired.
    @discardableResult
    public func remove(_ identifier: String) throws -> Bool {
        var removed = false
        try change { list in
            let before = list.count
            list.removeAll { $0.identifier == identifier }
            removed = list.count != before
        }
        return removed
    }

    private func change(_ body: (inout [PairedController]) throws -> Void) throws {
        try controllers.withLock { list in
            var changed = list
            try body(&changed)
            if let file {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try PairingFiles.write(try encoder.encode(Document(controllers: changed)), to: file)
            }
            list = changed
        }
    }
}
