import Foundation
import JSONDocument
import NumberText
import Profiles

/// The profile of a calibrated receiver: a base profile's document with the switch costs the
/// calibration measured put in, each with `basis: measured` and a source that says by what, on which
/// receiver, when, and from how many switches. What was not measured keeps the base's numbers and
/// their provenance, so `airlab profile show` tells the measured from the rest.
public enum MeasuredProfile {
    /// The base profile's document with `report`'s measurements, named `name`.
    public static func document(base: JSONValue, name: String, report: CalibrationReport) -> JSONValue {
        guard case .object(var profile) = base else { return base }
        let baseName = profile["name"].flatMap(\.text) ?? "the base profile"
        profile["name"] = .string(name)
        profile["version"] = .string("1")
        if let model = report.model { profile["model"] = .string(model) }
        let display = profile["displayName"].flatMap(\.text) ?? baseName
        profile["displayName"] = .string("\(display), measured")
        profile["notes"] = .string(
            "Switch costs measured by airlab calibrate on \(report.receiver) (\(report.date), \(report.repeats) repeats); "
                + "everything else as in \(baseName), with its sources.")

        guard case .object(var transitions)? = profile["transitions"] else { return .object(profile) }
        let witness = "airlab calibrate on \(report.receiver)\(report.model.map { " (\($0))" } ?? ""), \(report.date)"
        for dimension in report.dimensions {
            guard let measured = dimension.dimension == "splice" ? dimension.entryMilliseconds : dimension.costMilliseconds else { continue }
            var median = max(0, measured.median)
            var how = dimension.dimension == "splice"
                ? "the median of \(measured.samples.count) switches into an ad that differs in nothing"
                : "the median of \(measured.samples.count) switches into an ad that differs in \(dimension.dimension) only, less the splice switch of the same repeat"
            // x265 writes another video profile than x264: a codec switch pays for both, and the profile
            // charges the video profile on its own.
            if dimension.dimension == "video_codec", let profileCost = cost(transitions["video_profile"])?.p50 {
                median = max(0, median - profileCost)
                how += ", less the video_profile cost of \(profileCost.plainText) ms the same switch pays"
            }
            let largest = max(median, measured.maximum)
            var cost: [String: JSONValue] = [:]
            if case .object(let existing)? = transitions[dimension.dimension] { cost = existing }
            cost["p50Milliseconds"] = .number(rounded(median))
            cost["p95Milliseconds"] = .number(rounded(largest))
            cost["basis"] = .string(Provenance.Basis.measured.rawValue)
            cost["source"] = .string("\(witness): \(how); p95 is the largest of them")
            transitions[dimension.dimension] = .object(cost)
        }
        profile["transitions"] = .object(transitions)
        return .object(profile)
    }

    /// The document as a profile file: indented, keys sorted.
    public static func text(_ document: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }

    private static func cost(_ value: JSONValue?) -> (p50: Double, p95: Double)? {
        guard case .object(let members)? = value, case .number(let p50)? = members["p50Milliseconds"],
            case .number(let p95)? = members["p95Milliseconds"]
        else { return nil }
        return (p50, p95)
    }

    private static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 10).rounded() / 10
    }
}

extension JSONValue {
    fileprivate var text: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
