import Foundation

/// Threads of the process's own, off Swift's cooperative pool, each under a name `top -H`, `perf` and
/// /proc show: the loops that serve every receiver, the sweeper, the transfer loop.
public enum NamedThread {
    /// Starts `body` on a new thread named `name` (the kernel keeps 15 bytes of it).
    public static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Through /proc rather than Foundation: corelibs Foundation names the kernel's thread only when its
    /// own record of the new thread is complete, which a loaded machine showed it not always was, and
    /// pthread_setname_np is a GNU extension Swift's Glibc module leaves out.
    static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
