#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// Reads a local file whole, refusing it by its size before reading a byte of it.
///
/// The size comes from `fstat` on the opened descriptor, so a file swapped between the check and the
/// read cannot slip past the cap, and a 200 MB file costs one system call, not 200 MB of memory.
enum LocalFile {
    static func read(_ location: ResourceLocation, maximumSize: Int) throws(LoadingError) -> Data {
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
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw failure(.notAFile)
        }
        let size = Int(status.st_size)
        guard size <= maximumSize else {
            throw failure(.tooLarge(limit: maximumSize, size: size))
        }

        // One byte more than the size we saw tells us the file grew since `fstat`.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.unreadable(String(cString: strerror(errno))))
            }
            filled += count
        }
        guard filled <= size else {
            throw failure(.unreadable("it grew while it was read"))
        }
        return Data(bytes[..<filled])
    }
}
