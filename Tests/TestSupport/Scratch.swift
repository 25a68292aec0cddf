import Foundation

/// A fresh temporary folder for one test, removed by `remove()`.
public struct Scratch: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// A file of `size` bytes that starts with `prefix` and is a hole after it: it takes no disk space
    /// and no time to make, yet anything that reads it whole reads `size` bytes.
    @discardableResult
    public func writeSparse(_ name: String, prefix: String, size: UInt64) throws -> URL {
        let file = try write(name, prefix)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: size)
        return file
    }

    /// Removes the folder on a thread of its own and returns at once. Deleting media can wait seconds
    /// for the disk (this machine's ext4 discards the blocks it frees), and a test's `defer` runs on the
    /// shared pool, where that wait would hold up every other test.
    public func remove() {
        let url = url
        Thread { try? FileManager.default.removeItem(at: url) }.start()
    }
}
