import Arguments
import Foundation
import Lab
import SenderProtocol

/// `airlab status --to …`: who the receiver is and what it plays.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status", abstract: "Show the receiver and the session it plays: state, position, playlist.",
        discussion: "Exit status: 0 (also when nothing plays), 2 for errors.",
        options: [
            ReceiverOptions.to, .flag("json", help: "Print the status as JSON."), ReceiverOptions.password,
            ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            let receiver = try await ReceiverOptions.receiver(parsed)
            let client = try ReceiverOptions.client(receiver, parsed)
            do throws(ReceiverError) {
                let info = try await client.serverInfo()
                let sessions = try await client.sessions()
                let current = sessions.last { $0.active }
                let progress = current == nil ? nil : try await client.progress()
                print(parsed.flag("json")
                    ? json(receiver, info, current, progress, last: sessions.last)
                    : text(receiver, info, current, progress, last: sessions.last), terminator: "")
                return 0
            } catch {
                throw .receiver(error)
            }
        } catch {
            return error.report("status")
        }
    }

    static func text(_ receiver: Receiver, _ info: ServerInfo, _ current: SessionSummary?, _ progress: PlaybackProgress?, last: SessionSummary?) -> String {
        var named = receiver
        named.name = named.name ?? info.name
        var lines = [named.label + (info.profile.map { ", profile \($0)" } ?? "") + (info.model.map { ", model \($0)" } ?? "")]
        if let current {
            var line = "session \(current.id): \(current.state?.name ?? "playing")"
            if let position = progress?.position {
                line += ", position \(String(format: "%.1f", position))" + (progress?.duration.map { String(format: " of %.1f", $0) } ?? "") + " s"
            }
            lines.append(line)
            if let playlist = current.playlist { lines.append("playlist \(playlist)") }
        } else {
            lines.append("no session plays" + (last.map { "; the last one, \($0.id), ended: \($0.endReason ?? "unknown")" } ?? ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `status --json`: the receiver, and the session it plays if any.
    static func json(_ receiver: Receiver, _ info: ServerInfo, _ current: SessionSummary?, _ progress: PlaybackProgress?, last: SessionSummary?) -> String {
        var status = DiscoverCommand.ReceiverEntry(
            receiver, name: receiver.name ?? info.name, model: info.model, deviceid: info.deviceID, profile: info.profile)
        status.session = current.map {
            .init(id: $0.id, state: $0.state?.name, playlist: $0.playlist, position: progress?.position, duration: progress?.duration)
        }
        return CastCommand.encode(status) + "\n"
    }
}
