import ConsoleStream
import Foundation
import HTTP
import Playback
import Reports
import SenderProtocol

/// The routes of `airlab console` (docs/console.md): the page, its stream and the logs are
/// `ConsolePageRoutes`, as on `airlabd`; the rest reaches the receivers over HTTP with
/// `ReceiverClient`:
/// - `GET /console/receivers/N/timeline.svg`: the timeline of the session the tile shows, from the
///   receiver's report of it (`GET /sessions/ID`);
/// - `POST /console/receivers/N/control?command=…`: the sender's request for the command, to the
///   receiver's own route, so that a refusal is the receiver's 403 and its reason; 403 without
///   `--console-control`;
/// - `GET /console/frames/N.jpg` and the focus view's pictures either side of the last switch
///   (`before.jpg`, `after.jpg`, `return-…`): made by the receiver's own daemon (`GET /picture`, at
///   most once a second for a tile, four times for the tile in focus; a switch pictured while its
///   pictures are asked for) and passed through.
struct RemoteConsoleResponder: HTTPResponder {
    let broadcast: ConsoleBroadcast
    let clients: [ReceiverClient]

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        let parts = ConsolePageRoutes.parts(of: request.path)
        guard ConsolePageRoutes.serves(request.path) else { return .text("only /console is served here\n", status: 404) }
        guard ConsolePageRoutes.answers(parts) else { return nil }
        return ConsolePageRoutes(broadcast: broadcast).respond(to: request, parts: parts)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let answer = immediateResponse(to: request) { return answer }
        let parts = ConsolePageRoutes.parts(of: request.path)
        if parts.count == 3, parts[1] == "frames" {
            guard let index = ConsolePicture.receiver(ofFrame: parts[2]), clients.indices.contains(index) else {
                return ConsolePicture.noSuchFrame
            }
            return await picture(of: index, shot: nil, focused: request.query["focus"] != nil)
        }
        guard parts.count == 4, parts[1] == "receivers" else { return .text("no console route \(request.method) \(request.path)\n", status: 404) }
        guard let index = Int(parts[2]), clients.indices.contains(index) else {
            return .text("no receiver \(parts[2]); the console numbers them from 0 to \(clients.count - 1)\n", status: 404)
        }
        switch (parts[3], request.method) {
        case ("timeline.svg", "GET"): return await timeline(of: index)
        case ("before.jpg", "GET"): return await picture(of: index, shot: "into-before")
        case ("after.jpg", "GET"): return await picture(of: index, shot: "into-after")
        case ("return-before.jpg", "GET"): return await picture(of: index, shot: "back-before")
        case ("return-after.jpg", "GET"): return await picture(of: index, shot: "back-after")
        case ("control", "POST"): return await control(index, request.query)
        default: return .text("no console route \(request.method) \(request.path)\n", status: 404)
        }
    }

    /// A picture receiver `index`'s own daemon makes, as its `GET /picture` answers (with the break a
    /// switch's picture is of); "no picture" with its reason.
    private func picture(of index: Int, shot: String?, focused: Bool = false) async -> HTTPResponse {
        do throws(ReceiverError) {
            let (jpeg, eventID) = try await clients[index].picture(of: shot, focused: focused)
            return ConsolePicture.jpeg(jpeg, of: eventID)
        } catch {
            let reason: String
            switch error.problem {
            case .notFound(let message): reason = message.hasPrefix("no picture: ") ? String(message.dropFirst(12)) : message
            default: reason = "the receiver did not send one (\(error.problem))"
            }
            return ConsolePicture.none(reason)
        }
    }

    private func timeline(of index: Int) async -> HTTPResponse {
        guard let session = broadcast.tile(of: index)?.session else { return .text("no session has played on this receiver yet\n", status: 404) }
        do throws(ReceiverError) {
            let report = try await clients[index].report(ofSession: session)
            return .text(TimelineSVG.document([report]), contentType: "image/svg+xml")
        } catch {
            return .text("\(error)\n", status: 502)
        }
    }

    /// A command of the page's buttons, sent as a sender sends it.
    private func control(_ index: Int, _ query: [String: String]) async -> HTTPResponse {
        guard broadcast.allowsControl else {
            return .text("the console is read-only; start airlab console with --console-control to send commands from it\n", status: 403)
        }
        let client = clients[index]
        do throws(ReceiverError) {
            switch query["command"] {
            case "play": try await client.send(.setRate(1))
            case "pause": try await client.send(.setRate(0))
            case "stop": try await client.send(.stop)
            case "seek":
                // Read as the receiver reads /scrub's position, so that a bad one is refused here with the same words.
                let command: PlaybackCommand
                do throws(ProtocolError) {
                    command = try QueryCommand.scrub(query)
                } catch {
                    return .text("\(error.reason)\n", status: 400)
                }
                try await client.send(command)
            case "pip", "pip-off": try await client.setPictureInPicture(query["command"] == "pip")
            default: return .text("command= play, pause, seek (with position=SECONDS), stop, pip or pip-off\n", status: 400)
            }
            return .text("done\n")
        } catch {
            return Self.answer(error)
        }
    }

    /// The receiver's refusal as the page shows it: its status and its own words.
    private static func answer(_ error: ReceiverError) -> HTTPResponse {
        switch error.problem {
        case .refused(_, _, let message): .text(message + "\n", status: 403)
        case .noSession(let message): .text(message + "\n", status: 409)
        case .badRequest(let message): .text(message + "\n", status: 400)
        default: .text("\(error)\n", status: 502)
        }
    }
}
