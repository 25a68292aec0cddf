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
