import Foundation
import NumberText

/// The JSON document an X-ASSET-LIST points at: the assets of one break, resolved when it is due.
///
/// `{"ASSETS": [{"URI": "…", "DURATION": 15.0}], "SKIP-CONTROL": {"OFFSET": 5, "DURATION": 10, "LABEL-ID": "…"}}`
public struct AssetList: Hashable, Sendable {
    public struct Asset: Hashable, Sendable {
        public var uri: String
        public var duration: Double

        public init(uri: String, duration: Double) {
            self.uri = uri
            self.duration = duration
        }
    }

    public var assets: [Asset]
    /// Overrides the date range's X-SKIP-CONTROL-* attributes when present.
    public var skipControl: InterstitialEvent.SkipControl?

    public init(assets: [Asset], skipControl: InterstitialEvent.SkipControl? = nil) {
        self.assets = assets
        self.skipControl = skipControl
    }

    public var duration: Double { assets.reduce(0) { $0 + $1.duration } }

    /// Reads an asset list. Returns nil, with an error, when the document is not an asset list at all;
    /// invalid entries are skipped with a diagnostic each, as a receiver skips an asset that fails.
    public static func parse(_ data: Data, source: String) -> (list: AssetList?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func report(_ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String) {
            diagnostics.append(Diagnostic(severity, line: nil, code, message))
        }
        guard let document = try? JSONDecoder().decode(Document.self, from: data) else {
            report(.error, .assetListMalformed, "Asset list \(source) is not a JSON object; the break is skipped and primary resumes where it stopped.")
            return (nil, diagnostics)
        }
        guard let entries = document.assets else {
            report(.error, .assetListMissingAssets, "Asset list \(source) has no ASSETS array; the break is skipped and primary resumes where it stopped.")
            return (nil, diagnostics)
        }
        var assets: [Asset] = []
        var total = 0.0
        for (index, entry) in entries.enumerated() {
            guard let uri = entry.uri, !uri.isEmpty else {
                report(.error, .assetListInvalidAsset, "ASSETS[\(index)] of asset list \(source) has no URI string; that asset is skipped.")
                continue
            }
            let duration: Double
            switch NumberReading(entry.duration, in: .duration) {
            case .value(let seconds):
                duration = seconds
            case .outOfRange:
                report(.error, .numberOutOfRange, NumericRange.duration.refusal(
                    "DURATION", value: entry.duration.map(\.plainText) ?? "", of: "ASSETS[\(index)] (\(uri)) of asset list \(source)",
                    consequence: "that asset is skipped"))
                continue
            case .notANumber, .belowSpecMinimum:
                report(.error, .assetListInvalidAsset, "ASSETS[\(index)] (\(uri)) of asset list \(source) has no non-negative DURATION in seconds; that asset is skipped.")
                continue
            }
            // Each asset is in range, but their sum must be too: the break's duration is that sum.
            guard NumericRange.timeline.contains(total + duration) else {
                report(.error, .numberOutOfRange,
                    "ASSETS[\(index)] (\(uri)) of asset list \(source) would make the break last \((total + duration).plainTextToMilliseconds) s, beyond the \(NumericRange.timeline) airlab accepts for a break; that asset is skipped.")
                continue
            }
            total += duration
            assets.append(Asset(uri: uri, duration: duration))
        }
        if entries.isEmpty {
            report(.info, .assetListEmpty, "Asset list \(source) is empty: the break plays nothing and primary resumes by X-RESUME-OFFSET, or where it stopped.")
        }
        let skipControl = document.skipControl.map { control in
            func seconds(_ value: Double?, _ name: String) -> Double? {
                guard let value else { return nil }
                guard NumericRange.duration.contains(value) else {
                    report(.error, .numberOutOfRange, NumericRange.duration.refusal(
                        "SKIP-CONTROL \(name)", value: value.plainText, of: "asset list \(source)"))
                    return nil
                }
                return value
            }
            return InterstitialEvent.SkipControl(
                offset: seconds(control.offset, "OFFSET"), duration: seconds(control.duration, "DURATION"), labelID: control.labelID)
        }
        return (AssetList(assets: assets, skipControl: skipControl), diagnostics)
    }
}

/// The JSON shape, decoded leniently: a field of the wrong type reads as absent, so one bad asset
/// costs only itself. (JSONSerialization is no help here: on Linux it hands back 1 and true alike.)
private struct Document: Decodable {
    var assets: [Entry]?
    var skipControl: SkipControl?

    struct Entry: Decodable {
        var uri: String?
        var duration: Double?

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            uri = try? container.decodeIfPresent(String.self, forKey: .uri)
            duration = try? container.decodeIfPresent(Double.self, forKey: .duration)
        }

        enum Key: String, CodingKey {
            case uri = "URI"
            case duration = "DURATION"
        }
    }

    struct SkipControl: Decodable {
        var offset: Double?
        var duration: Double?
        var labelID: String?

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            offset = try? container.decodeIfPresent(Double.self, forKey: .offset)
            duration = try? container.decodeIfPresent(Double.self, forKey: .duration)
            labelID = try? container.decodeIfPresent(String.self, forKey: .labelID)
        }

        enum Key: String, CodingKey {
            case offset = "OFFSET"
            case duration = "DURATION"
            case labelID = "LABEL-ID"
        }
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        assets = try? container.decodeIfPresent([Entry].self, forKey: .assets)
        skipControl = try? container.decodeIfPresent(SkipControl.self, forKey: .skipControl)
    }

    enum Key: String, CodingKey {
        case assets = "ASSETS"
        case skipControl = "SKIP-CONTROL"
    }
}
