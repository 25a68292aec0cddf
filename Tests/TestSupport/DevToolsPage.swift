import ChildProcess
import Foundation
import Synchronization

/// A page in headless Chromium driven through its DevTools protocol, for tests that press what a person
/// presses: the mouse events and typed text go through the browser's input pipeline, so the page's own
/// handlers run as they would for a click.
///
/// Chromium listens on a free port (`--remote-debugging-port=0`, the port read from the
/// `DevToolsActivePort` file it writes), and the page's target is spoken to over a WebSocket written
/// here on a `RawSocket` (text frames, masked as a client's must be). Call it from async code; the
/// blocking reads run through `BlockingWork`.
public final class DevToolsPage: @unchecked Sendable {
    private let process: ChildProcess
    private let socket: RawSocket
    private let state = Mutex<(buffer: Data, nextID: Int)>((Data(), 0))

    /// Opens `url` in a new headless Chromium, its profile in `folder`, and connects to the page.
    public static func open(_ url: String, in folder: URL) async throws -> DevToolsPage {
        try await BlockingWork.run { try DevToolsPage(url: url, folder: folder) }
    }

    private init(url: String, folder: URL) throws {
        let profile = folder.appendingPathComponent("chromium-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        process = try ChildProcess(
            [
                "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir=\(profile.path)",
                "--window-size=1280,1600", "--no-first-run", url,
            ], standardOutput: .null, standardError: .file(profile.appendingPathExtension("err"), append: false))
        let deadline = Date().addingTimeInterval(30)
        var target: (port: UInt16, path: String)?
        while target == nil {
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                throw TestSupportError("chromium did not open its DevTools port: \((try? String(contentsOf: profile.appendingPathExtension("err"), encoding: .utf8)) ?? "")")
            }
            if let text = try? String(contentsOf: profile.appendingPathComponent("DevToolsActivePort"), encoding: .utf8),
                let port = text.split(separator: "\n").first.flatMap({ UInt16($0) })
            {
                target = try Self.pageTarget(port: port)
            }
            if target == nil { usleep(50_000) }
        }
        let (port, path) = target!
        socket = try RawSocket(port: port, receiveTimeoutSeconds: 30)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = socket.read { $0.range(of: Data("\r\n\r\n".utf8)) != nil }
        guard let end = head.range(of: Data("\r\n\r\n".utf8)), String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            process.terminate()
            throw TestSupportError("chromium refused the DevTools WebSocket: \(String(decoding: head, as: UTF8.self))")
        }
        state.withLock { $0.buffer = head.subdata(in: end.upperBound..<head.endIndex) }
    }

    /// The first page's WebSocket path, from `GET /json/list`; nil while it has none.
    private static func pageTarget(port: UInt16) throws -> (UInt16, String)? {
        let socket = try RawSocket(port: port)
        defer { socket.close() }
        try socket.send("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let text = socket.readToEnd()
        guard let body = text.range(of: "\r\n\r\n").map({ text[$0.upperBound...] }),
            let targets = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]],
            let page = targets.first(where: { $0["type"] as? String == "page" }),
            let address = page["webSocketDebuggerUrl"] as? String, let url = URL(string: address)
        else { return nil }
        return (port, url.path)
    }

    /// Calls a DevTools method on the page and returns its result; a protocol error throws.
    @discardableResult
    public func call(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": parameters])
        let frame = Self.frame(message)
        // The result crosses from the blocking thread as JSON text, since a dictionary of Any is not Sendable.
        let result = try await BlockingWork.run { [self] in
            try socket.send(frame)
            while true {
                let reply = try nextMessage()
                guard reply["id"] as? Int == id else { continue }
                if let error = reply["error"] { throw TestSupportError("DevTools \(method): \(error)") }
                return try JSONSerialization.data(withJSONObject: reply["result"] ?? [String: Any]())
            }
        }
        return (try JSONSerialization.jsonObject(with: result)) as? [String: Any] ?? [:]
    }

    /// The value of a script run in the page (`Runtime.evaluate`, by value).
    public func evaluate(_ expression: String) async throws -> Any? {
        let result = try await call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw TestSupportError("the page's script threw: \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Presses and releases the left mouse button at the middle of the element `selector` names,
    /// scrolled into view first: the click a person makes, through Chromium's input events.
    public func click(_ selector: String) async throws {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [selector]), as: UTF8.self).dropFirst().dropLast()
        let box = try await evaluate("""
            (() => { const el = document.querySelector(\(quoted)); el.scrollIntoView({block: "center"}); const r = el.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; })()
            """) as? [Double]
        guard let box, box.count == 2 else { throw TestSupportError("no element \(selector) to click") }
        for type in ["mousePressed", "mouseReleased"] {
            try await call("Input.dispatchMouseEvent", ["type": type, "x": box[0], "y": box[1], "button": "left", "clickCount": 1])
        }
    }

    /// Types `text` where the focus is, as a keyboard would insert it.
    public func type(_ text: String) async throws {
        try await call("Input.insertText", ["text": text])
    }

    /// Presses a key that edits (Backspace) where the focus is.
    public func press(key: String, code: String, keyCode: Int) async throws {
        for type in ["rawKeyDown", "keyUp"] {
            try await call("Input.dispatchKeyEvent", ["type": type, "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
        }
    }

    /// Ends Chromium.
    public func close() {
        socket.close()
        if process.isRunning { _ = process.terminate(grace: 2) }
    }

    deinit { close() }

    // MARK: - WebSocket frames

    /// A client's text frame: FIN, opcode 1, masked.
    static func frame(_ payload: Data) -> Data {
        var frame = Data([0x81])
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        } else {
            frame.append(0x80 | 127)
            frame.append(contentsOf: (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) })
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame.append(contentsOf: mask)
        frame.append(contentsOf: payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return frame
    }

    /// The next whole message from Chromium (its frames are never masked), as JSON.
    @available(*, noasync, message: "it blocks")
    private func nextMessage() throws -> [String: Any] {
        var message = Data()
        while true {
            let frame = try nextFrame()
            message.append(frame.payload)
            if frame.final {
                guard frame.opcode == 1 || frame.opcode == 0 else { message = Data(); continue }
                guard let object = (try? JSONSerialization.jsonObject(with: message)) as? [String: Any] else {
                    throw TestSupportError("DevTools sent something that is not a JSON object")
                }
                return object
            }
        }
    }

    @available(*, noasync, message: "it blocks")
    private func nextFrame() throws -> (final: Bool, opcode: UInt8, payload: Data) {
        while true {
            if let frame = state.withLock({ state in Self.takeFrame(from: &state.buffer) }) { return frame }
            // One read's worth: whatever arrived, however much of a frame it is.
            let more = socket.read { !$0.isEmpty }
            guard !more.isEmpty else { throw TestSupportError("DevTools closed the connection or went silent") }
            state.withLock { $0.buffer.append(more) }
        }
    }

    /// The whole length of the first frame in `data` (head and payload), when it is all there.
    static func frameLength(in data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(10))
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F), head = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            head = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            head = 10
        }
        return data.count >= head + length ? head + length : nil
    }

    static func takeFrame(from buffer: inout Data) -> (final: Bool, opcode: UInt8, payload: Data)? {
        guard let length = frameLength(in: buffer) else { return nil }
        let bytes = [UInt8](buffer.prefix(length))
        let head = switch bytes[1] & 0x7F {
        case 126: 4
        case 127: 10
        default: 2
        }
        let frame = (final: bytes[0] & 0x80 != 0, opcode: bytes[0] & 0x0F, payload: Data(bytes[head..<length]))
        buffer = Data(buffer.dropFirst(length))
        return frame
    }
}
