#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// Reads a local file, or a range of it, refusing it by its size before reading a byte of it.
///
/// The size comes from `fstat` on the opened descriptor, so a file swapped between the check and the
/// read cannot slip past the cap, and a 200 MB file costs one system call, not 200 MB of memory. The
/// bytes to read are reserved from the shared budget before they are allocated, and given back when
/// they are handed over.
enum LocalFile {
    static func read(
        _ location: ResourceLocation, maximumSize: Int, range: ResourceRange?, overflow: Overflow, budget: LoadMemoryBudget
    ) throws(LoadingError) -> Transferred {
        func failure(_ reason: LoadingError.Reason) -> LoadingError {
            LoadingError(location: location.description, reason: reason)
        }
        let path = location.url.path
        // O_NONBLOCK so that opening a FIFO never waits for a writer; regular files ignore it.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw failure(code == ENOENT || code == ENOTDIR ? .notFound : .unreadable(String(cString: strerror(code))))
        }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure(.unreadable(String(cString: strerror(errno))))
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw failure(kind == S_IFDIR ? .directory : .notAFile)
        }
        let size = Int(clamping: status.st_size)
        let start = min(range?.offset ?? 0, size)
        var wanted = min(range?.length ?? Int.max, size - start)
        var truncated = false
        if wanted > maximumSize {
            guard overflow == .keepFirst else {
                throw failure(.tooLarge(limit: maximumSize, size: range == nil ? size : wanted))
            }
            wanted = maximumSize
            truncated = true
        }

        // For a whole file, one byte more than the size we saw tells us the file grew since `fstat`.
        let checksGrowth = range == nil && !truncated
        let reserved = wanted + (checksGrowth ? 1 : 0)
        guard budget.reserve(reserved, holding: 0) else {
            throw failure(.memoryBudgetExhausted(limit: budget.limit))
        }
        defer { budget.release(reserved) }
        // Read straight into the Data that is returned: a segment is megabytes, and a copy costs.
        var bytes = Data(count: wanted + (checksGrowth ? 1 : 0))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(start + filled))
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.unreadable(String(cString: strerror(errno))))
            }
            filled += count
        }
        guard !checksGrowth || filled <= size else {
            throw failure(.unreadable("it grew while it was read"))
        }
        bytes.count = min(filled, wanted)
        return Transferred(data: bytes, finalURL: location.url, isTruncated: truncated)
    }
}

/// What one read brought back; a struct, since Swift 6.3's release builds corrupt tuples in places.
struct Transferred: Sendable {
    var data: Data
    /// Where the bytes came from after redirects.
    var finalURL: URL
    /// True when the resource was longer than the cap and only its first bytes were kept.
    var isTruncated: Bool
    /// What the server said about the body; nil for a local file.
    var response: ResponseHead? = nil
    /// Body bytes that arrived, kept or (for a measured read) counted and dropped.
    var bytes = 0
    /// Seconds after the first byte spent waiting for data the reader was ready to take (Transport's split).
    var originLimitedSeconds = 0.0
}
