import Foundation
import JSONDocument

/// Finds and reads receiver profiles: the shipped ones by name, or any JSON file by path.
///
/// Every profile passes three gates before use: the JSON schema (which requires a source and a basis
/// wherever numbers sit), the provenance of every number, then consistency checks the schema cannot
/// express (a p95 below its p50, a codec listed twice). A profile that fails either is refused
/// with the file, the JSON path and the reason; nothing half-valid is ever used.
public struct ProfileCatalog: Sendable {
    /// The folder of the shipped profiles (also at `profiles/` in the source tree).
    public let directory: URL

    public init(directory: URL? = nil) {
        self.directory = directory ?? Bundle.module.resourceURL!.appendingPathComponent("Shipped")
    }

    /// Names of the shipped profiles, sorted.
    public var shippedNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
            .map { String($0.dropLast(5)) }.sorted()
    }

    /// A shipped profile by name, or a profile file by path (anything containing `/` or ending in `.json`).
    public func profile(_ nameOrPath: String) throws(ProfileError) -> ReceiverProfile {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return try load(URL(fileURLWithPath: nameOrPath))
        }
        guard shippedNames.contains(nameOrPath) else {
            throw ProfileError(
                file: nameOrPath, path: "$",
                reason: "no shipped profile has this name; choose one of \(shippedNames.joined(separator: ", ")) or give a path to a JSON file")
        }
        return try load(directory.appendingPathComponent("\(nameOrPath).json"))
    }

    /// A profile is a few kilobytes; a file far larger, or one that is no regular file (a FIFO,
    /// `/dev/zero`), is refused before it is read, so a wrong path cannot hang or exhaust airlabd.
    public static let maximumFileSize = 1 << 20

    public func load(_ file: URL) throws(ProfileError) -> ReceiverProfile {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw ProfileError(file: file.path, path: "$", reason: "is not a regular file")
            }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Self.maximumFileSize else {
                throw ProfileError(file: file.path, path: "$", reason: "is \(size) bytes; a profile is at most \(Self.maximumFileSize)")
            }
            data = try Data(contentsOf: file)
        } catch let error as ProfileError {
            throw error
        } catch {
            throw ProfileError(file: file.path, path: "$", reason: "cannot be read (\(Self.reason(of: error)))")
        }
        return try decode(data, file: file.path)
    }

    /// Validates and decodes a profile document; `file` names it in errors.
    public func decode(_ data: Data, file: String) throws(ProfileError) -> ReceiverProfile {
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ProfileError(file: file, path: "$", reason: "is not valid JSON")
        }
        if let violation = try schema().violations(of: document).first {
            throw ProfileError(file: file, path: violation.path, reason: Self.explained(violation.reason))
        }
        // After the schema, which has put provenance on every object that holds a number: this reads
        // them, and refuses what the schema cannot see (an assumption without its reason).
        let provenance: ProfileProvenance
        do {
            provenance = try ProfileProvenance(reading: document)
        } catch {
            throw ProfileError(file: file, path: error.path, reason: error.reason)
        }
        var profile: ReceiverProfile
        do {
            profile = try JSONDecoder().decode(ReceiverProfile.self, from: data)
        } catch {
            // The schema accepted it, so this means the schema and the model disagree: say so plainly.
            throw ProfileError(file: file, path: "$", reason: "passes the schema but does not decode (\(error)); the schema and ReceiverProfile disagree")
        }
        profile.provenance = provenance
        if let problem = Self.inconsistency(in: profile) {
            throw ProfileError(file: file, path: problem.path, reason: problem.reason)
        }
        return profile
    }

    private func schema() throws(ProfileError) -> JSONSchema {
        try shippedSchema("profile.schema.json")
    }

    /// A schema shipped beside the profiles (`profile.schema.json`, `fleet.schema.json`); a missing or
    /// broken one is an error naming its file, as an installation that lost it must say.
    public func shippedSchema(_ fileName: String) throws(ProfileError) -> JSONSchema {
        let file = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: file), let schema = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw ProfileError(file: file.path, path: "$", reason: "the shipped schema is missing or not JSON")
        }
        return JSONSchema(schema)
    }

    /// A missing source or basis is the refusal most files written before provenance meet; say what they are.
    static func explained(_ reason: String) -> String {
        guard reason == #"the required member "source" is missing"# || reason == #"the required member "basis" is missing"# else { return reason }
        return reason + ": every number needs a source (a citation, or for an assumption its reason) and a basis (\(ProfileProvenance.bases))"
    }

    /// Rules the schema cannot express.
    static func inconsistency(in profile: ReceiverProfile) -> (path: String, reason: String)? {
        var costs = [("$.transitions.splice", profile.transitions.splice)]
        costs += profile.transitions.dimensions.sorted { $0.key < $1.key }.map { ("$.transitions.\($0.key)", $0.value) }
        for (path, cost) in costs where cost.p95Milliseconds < cost.p50Milliseconds {
            return ("\(path).p95Milliseconds", "the 95th percentile (\(cost.p95Milliseconds) ms) is below the median (\(cost.p50Milliseconds) ms)")
        }
        if let video = profile.video {
            for (index, codec) in video.codecs.enumerated() where video.codecs[..<index].contains(where: { $0.codec == codec.codec }) {
                return ("$.video.codecs[\(index)].codec", "\(codec.codec) is listed more than once; merge the entries")
            }
            if !video.dynamicRanges.contains("SDR") {
                return ("$.video.dynamicRanges", "every video receiver shows SDR; add \"SDR\"")
            }
        }
        for (index, codec) in profile.audio.codecs.enumerated() where profile.audio.codecs[..<index].contains(where: { $0.codec == codec.codec }) {
            return ("$.audio.codecs[\(index)].codec", "\(codec.codec) is listed more than once; merge the entries")
        }
        for (index, quirk) in (profile.quirks ?? []).enumerated() {
            if let problem = quirk.problem { return ("$.quirks[\(index)].\(problem.member)", problem.reason) }
            if profile.quirks![..<index].contains(where: { $0.kind == quirk.kind }) {
                return ("$.quirks[\(index)].kind", "\(quirk.kind.rawValue) is declared more than once; keep one")
            }
        }
        if let problem = profile.airplay?.problem {
            return ("$.airplay", problem)
        }
        return nil
    }

    private static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        return nsError.localizedDescription
    }
}
