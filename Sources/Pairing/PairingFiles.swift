import Foundation

/// Writing and reading the small private files of pairing: written whole to a temporary file of mode
/// 0600 and renamed, so a crash leaves the old file or the new one, never half of one; read with a
/// size bound, since the folder may hold anything.
enum PairingFiles {
    static func write(_ bytes: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw PairingFileError(file: file.path, reason: "cannot be written")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw PairingFileError(file: file.path, reason: "cannot be replaced: \(reason)")
        }
    }

    /// The file's bytes, nil when it does not exist.
    static func read(_ file: URL, maximum: Int) throws -> Data? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size <= maximum else { throw PairingFileError(file: file.path, reason: "is \(size) bytes, over the \(maximum)-byte bound") }
        guard let data = FileManager.default.contents(atPath: file.path) else { throw PairingFileError(file: file.path, reason: "cannot be read") }
        return data
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let byte = UInt8(String(decoding: characters[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// A pairing file that could not be read or written: its path and why.
public struct PairingFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file) \(reason)" }
}
