import Foundation

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
        guard let object = try? JSONSerialization.jsonObject(with: data), let document = object as? [String: Any] else {
            report(.error, .assetListMalformed, "Asset list \(source) is not a JSON object; the break is skipped and primary resumes where it stopped.")
            return (nil, diagnostics)
        }
        guard let entries = document["ASSETS"] as? [Any] else {
            report(.error, .assetListMissingAssets, "Asset list \(source) has no ASSETS array; the break is skipped and primary resumes where it stopped.")
            return (nil, diagnostics)
        }
        var assets: [Asset] = []
        for (index, entry) in entries.enumerated() {
            guard let asset = entry as? [String: Any], let uri = asset["URI"] as? String, !uri.isEmpty else {
                report(.error, .assetListInvalidAsset, "ASSETS[\(index)] of asset list \(source) has no URI string; that asset is skipped.")
                continue
            }
            guard let duration = number(asset["DURATION"]), duration >= 0 else {
                report(.error, .assetListInvalidAsset, "ASSETS[\(index)] (\(uri)) of asset list \(source) has no non-negative DURATION in seconds; that asset is skipped.")
                continue
            }
            assets.append(Asset(uri: uri, duration: duration))
        }
        if entries.isEmpty {
            report(.info, .assetListEmpty, "Asset list \(source) is empty: the break plays nothing and primary resumes by X-RESUME-OFFSET, or where it stopped.")
        }

        var skipControl: InterstitialEvent.SkipControl?
        if let control = document["SKIP-CONTROL"] as? [String: Any] {
            skipControl = InterstitialEvent.SkipControl(
                offset: number(control["OFFSET"]), duration: number(control["DURATION"]), labelID: control["LABEL-ID"] as? String)
        }
        return (AssetList(assets: assets, skipControl: skipControl), diagnostics)
    }

    /// JSON numbers arrive as NSNumber; a Bool is an NSNumber too and must not pass for one.
    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let double = number.doubleValue
        return double.isFinite ? double : nil
    }
}
