import Console
import ConsoleStream
import Foundation
import HTTP
import Reports

/// The console's routes (docs/console.md), served on the process endpoint beside `/metrics` or on
/// `--console`'s own address:
/// - `GET /console`, `/console/console.css`, `/console/console.js`: the page;
/// - `GET /console/events`: the tiles as server-sent events (503 past `ConsoleBroadcast.listenerLimit`);
/// - `GET /console/receivers/N/log`, `/timeline.svg`, `/before.jpg`, `/after.jpg`, `/return-before.jpg`
///   and `/return-after.jpg`: the receiver in focus (the pictures either side of its last switch into a
///   break, and of its last switch back to primary);
/// - `GET /console/frames/N.jpg[?focus]`: the picture at receiver N's playhead (`ConsoleFrames`), or
///   404 with why there is none;
/// - `POST /console/receivers/N/control?command=play|pause|stop|seek&position=S|pip|pip-off`: a sender's command,
///   through the receiver's own routes; 403 without `--console-control`.
///
/// The page, its stream and the logs are `ConsolePageRoutes`, shared with `airlab console`.
///
/// The page shows receivers' names, profiles and what they play, never a file path or a request header.
struct ConsoleResponder: Sendable {
    let console: FleetConsole
    private let routes: ConsolePageRoutes

    init(console: FleetConsole) {
        self.console = console
        routes = ConsolePageRoutes(broadcast: console.broadcast)
    }

    static func serves(_ path: String) -> Bool {
        ConsolePageRoutes.serves(path)
    }

    /// The routes that never wait, answered on the polling thread; nil for those that run in a task.
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let parts = ConsolePageRoutes.parts(of: request.path)
        guard ConsolePageRoutes.answers(parts) else { return nil }
        return routes.respond(to: request, parts: parts)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let parts = ConsolePageRoutes.parts(of: request.path)
        if ConsolePageRoutes.answers(parts) { return routes.respond(to: request, parts: parts) }
        if parts.count == 3, parts[1] == "frames", request.method == "GET" { return await frame(parts[2], focused: request.query["focus"] != nil) }
        guard parts.count == 4, parts[1] == "receivers" else { return .text("no console route \(request.method) \(request.path)\n", status: 404) }
        guard let index = Int(parts[2]), console.fleet.receivers.indices.contains(index) else {
            return .text("no receiver \(parts[2]); the console numbers them from 0 to \(console.fleet.receivers.count - 1)\n", status: 404)
        }
        switch (parts[3], request.method) {
        case ("timeline.svg", "GET"): return timeline(of: index)
        case ("before.jpg", "GET"), ("after.jpg", "GET"), ("return-before.jpg", "GET"), ("return-after.jpg", "GET"):
            let back = parts[3].hasPrefix("return-")
            guard let transition = back ? console.frames.returnTransition(of: index) : console.frames.transition(of: index) else {
                return .text("no picture: no switch \(back ? "back to primary" : "into a break") yet\n", status: 404)
            }
            // Named by its break, for a page (or a test) that wants to know which switch the pictures are of.
            return (parts[3].hasSuffix("before.jpg") ? transition.before : transition.after).response(of: transition.eventID)
        case ("control", "POST"): return await control(index, request.query)
        default: return .text("no console route \(request.method) \(request.path)\n", status: 404)
        }
    }

    private func frame(_ name: String, focused: Bool) async -> HTTPResponse {
        guard let index = ConsolePicture.receiver(ofFrame: name), console.fleet.receivers.indices.contains(index) else {
            return ConsolePicture.noSuchFrame
        }
        return await console.frames.picture(of: index, focused: focused).response()
    }

    /// The timeline the reports draw, of the session playing or played last.
    private func timeline(of index: Int) -> HTTPResponse {
        let core = console.fleet.receivers[index].core
        let report = core.current?.report ?? core.store.latest.flatMap { core.store.report(id: $0.id) }
        guard let report else { return .text("no session has played on this receiver yet\n", status: 404) }
        return .text(TimelineSVG.document([report]), contentType: "image/svg+xml")
    }

    /// A command of the page's buttons as the sender protocol's request for it.
    private struct Forward {
        var method = "POST"
        var path: String
        var query: [String: String] = [:]
        var body = Data()
        var headers = HTTPHeaders()

        init?(command: String, query: [String: String]) {
            switch command {
            case "play": (path, self.query) = ("/rate", ["value": "1"])
            case "pause": (path, self.query) = ("/rate", ["value": "0"])
            case "stop": path = "/stop"
            case "seek":
                guard let position = query["position"] else { return nil }
                (path, self.query) = ("/scrub", ["position": position])
            case "pip", "pip-off":
                (method, path, self.query) = ("PUT", "/setProperty", ["presentationMode": ""])
                body = Data(#"{"value": "\#(command == "pip" ? "pictureInPicture" : "standard")"}"#.utf8)
                headers = ["Content-Type": "application/json"]
            default: return nil
            }
        }
    }

    /// A command through the receiver's own responder, so that it is refused, with the same reason, as
    /// a sender's would be (a seek across a JUMP break is a 403 naming it).
    private func control(_ index: Int, _ query: [String: String]) async -> HTTPResponse {
        guard console.allowsControl else {
            return .text("the console is read-only; start airlabd with --console-control to send commands from it\n", status: 403)
        }
        guard let name = query["command"], let forward = Forward(command: name, query: query) else {
            return .text("command= play, pause, seek (with position=SECONDS), stop, pip or pip-off\n", status: 400)
        }
        let responder = ReceiverResponder(core: console.fleet.receivers[index].core)
        return await responder.respond(
            to: HTTPRequest(method: forward.method, path: forward.path, query: forward.query, headers: forward.headers, body: forward.body))
    }
}
