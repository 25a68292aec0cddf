import CMicroHTTPD
import Foundation

/// The C functions libmicrohttpd calls, on its polling threads (a connection's always on the same
/// one). Each turns its arguments into Swift values and hands them to the `ServerCore` whose address
/// is the closure.
enum DaemonCallbacks {
    /// Throwing away more than this many times the body cap means a client that will not stop
    /// sending; its connection is dropped instead of answered.
    static let discardFactor = 8

    static let access: MHD_AccessHandlerCallback = { closure, connection, url, method, version, upload, uploadSize, requestSlot in
        guard let closure, let connection, let uploadSize, let requestSlot else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(closure).takeUnretainedValue()

        guard let slot = requestSlot.pointee else {
            // The first call only announces the request; answering here would close keep-alive
            // connections, so it is answered on a later call unless the body is already too large.
            let context = RequestContext(
                connection: connection, connectionID: connectionID(of: connection),
                method: string(method), path: string(url), version: string(version),
                headers: values(of: connection, kind: .HEADER_KIND), query: query(of: connection))
            context.channel = core.channel(of: context.connectionID)
            requestSlot.pointee = Unmanaged.passRetained(context).toOpaque()
            if let verdict = core.credentialVerdict(for: context), verdict != .accepted {
                // The headers alone decide: a body from a client without credentials is never read.
                // libmicrohttpd skips it when the answer is queued now, and closes the connection.
                if context.announcesBody {
                    core.requestComplete(on: context.connectionID)
                    return core.queueChallenge(verdict, for: context, closing: true) ? .YES : .NO
                }
                context.refusal = verdict
                return .YES
            }
            if let length = context.headers["Content-Length"].flatMap(Int.init), length > core.configuration.maxBodySize {
                core.requestComplete(on: context.connectionID)
                return core.queue(tooLarge(core), for: context) ? .YES : .NO
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()

        let count = uploadSize.pointee
        if count > 0 {
            // A refused request announced no body; bytes arriving anyway mean a client that cannot
            // be trusted to frame its next request either.
            if context.refusal != nil { return .NO }
            let cap = core.configuration.maxBodySize
            if !context.overflowed, context.body.count + count <= cap, let upload {
                context.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: count)
            } else {
                // libmicrohttpd allows no answer while body data is being delivered: discard the
                // rest and answer 413 once it is in.
                context.overflowed = true
                context.body = Data()
                context.discarded += count
                if context.discarded > cap * discardFactor { return .NO }
            }
            uploadSize.pointee = 0
            return .YES
        }
        // The request is in: from here it is the server's to answer, however long that takes.
        core.requestComplete(on: context.connectionID)
        if let refusal = context.refusal {
            return core.queueChallenge(refusal, for: context, closing: false) ? .YES : .NO
        }
        if context.overflowed {
            return core.queue(tooLarge(core), for: context) ? .YES : .NO
        }
        return core.answer(context) ? .YES : .NO
    }

    static let completed: MHD_RequestCompletedCallback = { closure, _, requestSlot, termination in
        guard let closure, let requestSlot, let slot = requestSlot.pointee else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(closure).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
        requestSlot.pointee = nil
        core.forget(context)
        if termination == .REQUEST_TERMINATED_COMPLETED_OK {
            core.responseFinished(on: context.connectionID, upgraded: context.upgrade != nil)
        }
        if let stream = context.stream {
            core.unregister(stream)
            stream.detach(clientLeft: termination != .REQUEST_TERMINATED_COMPLETED_OK)
        }
        if let body = context.streamedBody {
            core.unregister(body)
            body.detach(delivered: termination == .REQUEST_TERMINATED_COMPLETED_OK)
        }
        // A no-op when the switch happened; otherwise the client left before it could.
        context.upgrade?.abandon()
    }

    /// A request line has arrived, before its headers: a keep-alive connection's next request starts.
    static let requestLine: airlab_mhd_request_line_callback = { closure, _, connection in
        guard let closure, let connection else { return nil }
        let core = Unmanaged<ServerCore>.fromOpaque(closure).takeUnretainedValue()
        core.requestLineArrived(on: connectionID(of: connection))
        return nil
    }

    static let connection: MHD_NotifyConnectionCallback = { closure, connection, socketContext, event in
        guard let closure, let socketContext else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(closure).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let id = core.state.withLock { state in
                state.openConnections += 1
                state.acceptedConnections += 1
                defer { state.nextConnectionID += 1 }
                return state.nextConnectionID
            }
            socketContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(id))
            if let connection {
                let descriptor = airlab_mhd_connection_fd(connection)
                if var size = core.configuration.sendBufferBytes.map({ Int32(clamping: $0) }) {
                    _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                }
                core.connectionOpened(id, descriptor: descriptor)
            }
        case .CONNECTION_NOTIFY_CLOSED:
            let id = UInt64(UInt(bitPattern: socketContext.pointee))
            core.watch(id).watch.withLock { $0.closed(id) }
            core.state.withLock { $0.openConnections -= 1 }
            core.connectionClosed(id)
            // A daemon at its connection limit has stopped listening; run from the shared loop, it
            // listens again only on its next run, which nothing on its descriptors would bring.
            core.loop?.runSoon()
            core.responder.connectionClosed(HTTPConnectionID(id))
        default:
            break
        }
    }

    static let streamRead: MHD_ContentReaderCallback = { closure, _, buffer, capacity in
        guard let closure, let buffer else { return airlab_mhd_content_end_with_error() }
        let stream = Unmanaged<SSEStream>.fromOpaque(closure).takeUnretainedValue()
        return stream.read(into: buffer, capacity: capacity)
    }

    static let streamFree: MHD_ContentReaderFreeCallback = { closure in
        guard let closure else { return }
        Unmanaged<SSEStream>.fromOpaque(closure).release()
    }

    static let bodyRead: MHD_ContentReaderCallback = { closure, _, buffer, capacity in
        guard let closure, let buffer else { return airlab_mhd_content_end_with_error() }
        let body = Unmanaged<StreamedBody>.fromOpaque(closure).takeUnretainedValue()
        return body.read(into: buffer, capacity: capacity)
    }

    static let bodyFree: MHD_ContentReaderFreeCallback = { closure in
        guard let closure else { return }
        Unmanaged<StreamedBody>.fromOpaque(closure).release()
    }

    /// libmicrohttpd calls this before its request-completed callback, so the request's context is
    /// still alive here.
    static let upgraded: MHD_UpgradeHandler = { _, _, requestSlot, extra, extraCount, socket, handle in
        guard let handle else { return }
        guard let requestSlot, let upgrade = Unmanaged<RequestContext>.fromOpaque(requestSlot).takeUnretainedValue().upgrade else {
            _ = airlab_mhd_upgrade_close(handle)
            return
        }
        let received = extra.map { Data(bytes: $0, count: extraCount) } ?? Data()
        upgrade.attach(socket: socket, handle: handle, alreadyReceived: received)
    }

    // MARK: - Reading what libmicrohttpd parsed

    private static func tooLarge(_ core: ServerCore) -> HTTPResponse {
        var response = HTTPResponse.text(
            "The request body is larger than the \(core.configuration.maxBodySize) bytes this server accepts.\n",
            status: 413)
        response.headers.set("Connection", "close")
        return response
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func connectionID(of connection: OpaquePointer) -> HTTPConnectionID {
        HTTPConnectionID(UInt64(UInt(bitPattern: airlab_mhd_socket_context(connection))))
    }

    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(connection, kind, { closure, _, key, value in
                guard let closure, let key else { return .YES }
                let fields = closure.assumingMemoryBound(to: [HTTPHeaders.Field].self)
                fields.pointee.append(HTTPHeaders.Field(name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
        }
        return HTTPHeaders(fields)
    }

    private static func query(of connection: OpaquePointer) -> [String: String] {
        var query: [String: String] = [:]
        for field in values(of: connection, kind: .GET_ARGUMENT_KIND).fields where query[field.name] == nil {
            query[field.name] = field.value
        }
        return query
    }
}
