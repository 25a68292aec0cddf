#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// A response body as it arrives: one allocation that grows by doubling, never past the read's cap,
/// handed over as `Data` without a copy.
///
/// `Data.append` on a growing body leaves its capacity to Foundation (up to twice the bytes, with the
/// old and new storage both alive while it copies); here the capacity is exact when the server says
/// how long the body is, never above the cap, and grows with `realloc`, which moves large blocks by
/// remapping pages instead of copying them. Capacity not yet written costs address space, not memory.
/// Used only under `HTTPTransfer`'s lock.
final class BodyBuffer: @unchecked Sendable {
    /// The cap: the buffer never holds or allocates more.
    let limit: Int
    private(set) var count = 0
    private var capacity = 0
    private var base: UnsafeMutableRawPointer?
    /// Set once the server has declared the body's length: the first allocation is exactly that.
    var expectedLength: Int?

    /// The first allocation for a body of unknown length; it doubles from there.
    private static let initialCapacity = 64 << 10

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    deinit {
        free(base)
    }

    /// Appends `bytes`; false when memory for them cannot be had. The caller keeps `count + bytes.count`
    /// within `limit`.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty, let source = bytes.baseAddress else { return true }
        let needed = count + bytes.count
        precondition(needed <= limit, "a body buffer is never filled past its cap")
        if needed > capacity {
            let grown = capacity == 0 ? (expectedLength ?? Self.initialCapacity) : capacity * 2
            let newCapacity = min(limit, max(needed, grown))
            guard let moved = realloc(base, newCapacity) else { return false }
            base = moved
            capacity = newCapacity
        }
        (base! + count).copyMemory(from: source, byteCount: bytes.count)
        count = needed
        return true
    }

    /// The bytes, as the `Data` that owns them from now on; the buffer is empty afterwards.
    func take() -> Data {
        guard let base, count > 0 else { return Data() }
        // Shrinking in place: the unwritten tail goes back without a copy of the body.
        let owned = realloc(base, count) ?? base
        let data = Data(bytesNoCopy: owned, count: count, deallocator: .free)
        self.base = nil
        capacity = 0
        count = 0
        return data
    }
}
