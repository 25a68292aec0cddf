import Foundation
import HLS
import JSONDocument
import Playback
import Profiles

extension FleetDescription {
    /// The schema fleet files are checked against, shipped beside the profiles' own.
    public static let schemaFileName = "fleet.schema.json"

    /// Reads a fleet file (`airlabd --fleet FILE.json`). Profile paths in it are relative to its folder.
    public static func load(_ file: URL, catalog: ProfileCatalog = ProfileCatalog()) throws(FleetError) -> FleetDescription {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw FleetError(file: file.path, path: "$", reason: "cannot be read (\((error as NSError).localizedDescription))")
        }
        return try decode(data, file: file.path, folder: file.deletingLastPathComponent(), catalog: catalog)
    }

    /// Checks a fleet document against `fleet.schema.json`, reads its profiles, then checks what the
    /// schema cannot say (ports that overlap, names that repeat), naming the file, the JSON path and
    /// the reason of the first problem.
    public static func decode(_ data: Data, file: String, folder: URL, catalog: ProfileCatalog) throws(FleetError) -> FleetDescription {
        guard let document = JSONValue(document: data) else { throw FleetError(file: file, path: "$", reason: JSONValue.unreadableDocument) }
        let schema: JSONSchema
        do throws(ProfileError) {
            schema = try catalog.shippedSchema(schemaFileName)
        } catch {
            throw FleetError(file: error.file, path: error.path, reason: error.reason)
        }
        if let violation = schema.violations(of: document).first {
            throw FleetError(file: file, path: violation.path, reason: violation.reason)
        }
        // The schema has held: the members below exist where required and have their types and ranges.
        guard case .object(let top) = document, case .array(let entries) = top["receivers"] else {
            throw FleetError(file: file, path: "$", reason: "passes the schema but has no receivers array; the schema and the reader disagree")
        }
        var media = MediaMode.probe
        if case .string(let name) = top["media"], let mode = MediaMode(rawValue: name) { media = mode }
        var replicas: [Replicas] = []
        for (index, entry) in entries.enumerated() {
            guard case .object(let members) = entry, case .string(let reference) = members["profile"] else { continue }
            let location = FleetLocation(file: file, index: index)
            let profile: ReceiverProfile
            do throws(ProfileError) {
                profile = try catalog.profile(resolved(reference, in: folder))
            } catch {
                throw FleetError(location, member: "profile", reason: "profile \(error)")
            }
            var group = Replicas(profile: profile, location: location)
            if case .number(let count) = members["count"] { group.count = Int(saturating: count) }
            if case .number(let port) = members["port"] { group.firstPort = Int(saturating: port) }
            if case .string(let name) = members["name"] { group.name = name }
            if case .string(let password) = members["password"] { group.password = password }
            if case .number(let scale) = members["timeScale"] { group.timeScale = scale }
            replicas.append(group)
        }
        let description = FleetDescription(replicas: replicas, media: media)
        // Ports and names are checked where receivers are made, the same for every fleet; do it now, so a
        // bad file fails as it is read, with its path.
        _ = try description.configurations(Shared())
        return description
    }

    /// A profile file named relative to the fleet file is found beside it; a shipped name stays a name.
    private static func resolved(_ reference: String, in folder: URL) -> String {
        let isPath = reference.contains("/") || reference.hasSuffix(".json")
        guard isPath, !reference.hasPrefix("/") else { return reference }
        return folder.appendingPathComponent(reference).path
    }
}
