import CMicroHTTPD

/// A libmicrohttpd object (daemon, connection, upgrade handle) held in Swift state behind a lock.
///
/// The pointers are opaque and libmicrohttpd documents which calls are safe from which thread; this
/// wrapper only lets them be stored in a `Mutex`, whose value must be sendable.
struct MHDHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}

/// A libmicrohttpd connection held in Swift state, and the shared loop that runs its daemon if it has
/// no thread of its own.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let loop: ServerLoop.Registration?

    /// From any thread. libmicrohttpd asks a caller that runs a daemon from outside to run it after a
    /// resume (microhttpd.h, `MHD_resume_connection`), so the loop is told to.
    func resume() {
        MHD_resume_connection(pointer)
        loop?.runSoon()
    }
}
