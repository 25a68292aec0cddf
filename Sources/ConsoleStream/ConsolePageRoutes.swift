import Console
import Foundation
import HTTP

/// The console's routes that are the same whoever feeds the board: the page (`GET /console`,
/// `console.css`, `console.js`), its event stream (`GET /console/events`, 503 past
/// `ConsoleBroadcast.listenerLimit`) and a receiver's log (`GET /console/receivers/N/log`). None waits,
/// so they are answered on the server's polling thread. The rest (pictures, timeline, controls)
/// belongs to the console that knows how to reach its receivers.
public struct ConsolePageRoutes: Sendable {
    public let broadcast: ConsoleBroadcast

    public init(broadcast: ConsoleBroadcast) {
        self.broadcast = broadcast
    }

    public static func serves(_ path: String) -> Bool {
        path == "/console" || path.hasPrefix("/console/")
    }

    /// The path's parts after the host: `["console", "receivers", "3", "log"]`.
    public static func parts(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Whether these routes answer the request: the page, its files, the events and a log.
    public static func answers(_ parts: [String]) -> Bool {
        switch parts.count {
        case 1: true
        case 2: ["console.css", "console.js", "events"].contains(parts[1])
        case 4: parts[1] == "receivers" && parts[3] == "log"
        default: false
        }
    }

    /// The answer to one of the routes `answers` names; 404 and 405 otherwise.
    public func respond(to request: HTTPRequest, parts: [String]) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text("the console's pages take GET\n", status: 405)
        }
        switch parts.dropFirst().first {
        case nil: return .text(ConsolePage.html, contentType: "text/html; charset=utf-8")
        case "console.css": return .text(ConsolePage.style, contentType: "text/css; charset=utf-8")
        case "console.js": return .text(ConsolePage.script, contentType: "text/javascript; charset=utf-8")
        case "events":
            guard let stream = broadcast.stream() else {
                return .text("\(ConsoleBroadcast.listenerLimit) pages watch this console already; close one\n", status: 503)
            }
            return .eventStream(stream)
        case "receivers" where parts.count == 4 && parts[3] == "log":
            guard let index = Int(parts[2]), let log = broadcast.log(of: index) else { return .text("no receiver \(parts[2])\n", status: 404) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: (try? JSONEncoder().encode(log)) ?? Data("[]".utf8))
        default:
            return .text("no console route \(request.path)\n", status: 404)
        }
    }
}
