import HLS

extension InspectionReport {
    /// The report as a summary for a terminal, ending with a newline.
    ///
    /// Sections appear only when they have something to say; diagnostics come last, one per line as
    /// `severity line code message`, so that `grep error` finds them.
    public func renderedText() -> String {
        var lines: [String] = []
        lines.append("\(kind.map { "\($0.rawValue) playlist" } ?? "not a playlist"): \(playlist)")
        lines += summaryLines()
        if let variants, !variants.isEmpty {
            lines += ["", "variants (\(variants.count))"] + variantLines(variants)
        }
        if let renditions, !renditions.isEmpty {
            lines += ["", "renditions (\(renditions.count))"] + renditionLines(renditions)
        }
        if let interstitials, !interstitials.isEmpty {
            lines += ["", "interstitials (\(interstitials.count))"]
            for interstitial in interstitials { lines += interstitialLines(interstitial) }
        }
        if let schedule, !schedule.isEmpty {
            lines += ["", "schedule (seconds)"] + scheduleLines(schedule)
        }
        if let stitchedRanges {
            lines += ["", "stitched ranges (\(stitchedRanges.count))"] + stitchedLines(stitchedRanges)
        }
        lines += [""] + diagnosticLines()
        return lines.joined(separator: "\n") + "\n"
    }

    private func summaryLines() -> [String] {
        guard kind == .media else { return [] }
        var parts: [String] = []
        if let segments { parts.append("\(segments) segments") }
        if let duration { parts.append("duration \(Seconds.format(duration)) s") }
        if let targetDuration { parts.append("target duration \(Seconds.format(targetDuration)) s") }
        if let live { parts.append(live ? "live" : "VOD") }
        var lines = ["  " + parts.joined(separator: ", ")]
        if let playoutDuration, interstitials?.isEmpty == false {
            lines.append("  playout duration with interstitials \(Seconds.format(playoutDuration)) s")
        }
        return lines
    }

    private func variantLines(_ variants: [Variant]) -> [String] {
        var table = TextTable(header: ["BANDWIDTH", "CODECS", "RESOLUTION", "FPS", "RANGE", "AUDIO", "VIDEO", "SUBTITLES", "CC", "URI"])
        for variant in variants {
            table.append([
                variant.bandwidth.map(String.init) ?? "-", variant.codecs.isEmpty ? "-" : variant.codecs.joined(separator: ","),
                variant.resolution ?? "-", variant.frameRate.map(Seconds.format) ?? "-", variant.videoRange ?? "-",
                variant.audio ?? "-", variant.video ?? "-", variant.subtitles ?? "-", variant.closedCaptions ?? "-", variant.uri,
            ])
        }
        return table.lines()
    }

    private func renditionLines(_ renditions: [Rendition]) -> [String] {
        var table = TextTable(header: ["TYPE", "GROUP", "NAME", "LANGUAGE", "DEFAULT", "AUTOSELECT", "URI"])
        for rendition in renditions {
            table.append([
                rendition.type, rendition.groupID, rendition.name, rendition.language ?? "-",
                rendition.default ? "YES" : "NO", rendition.autoselect ? "YES" : "NO", rendition.uri ?? "-",
            ])
        }
        return table.lines()
    }

    private func interstitialLines(_ event: Interstitial) -> [String] {
        var table = TextTable()
        func row(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { table.append([name, value]) }
        }
        let start = event.start.map { "\(Seconds.format($0)) s" } ?? "not positioned"
        row("start", event.startDate.map { "\(start) (\($0))" } ?? start)
        row("asset URI", event.assetURI)
        row("asset list", event.assetList)
        var duration = event.duration.map { "\(Seconds.format($0)) s" } ?? "unknown"
        duration += " (from \(event.durationSource.rawValue)\(event.durationIsEstimate ? ", an estimate" : ""))"
        if let assets = event.assetDurations, assets.count > 1 || event.durationSource == .assetList {
            duration += ", assets: " + (assets.isEmpty ? "none" : assets.map { "\(Seconds.format($0)) s" }.joined(separator: " + "))
        }
        row("duration", duration)
        if event.cancelled == true { row("cancelled", "yes: the assets cannot load, primary resumes where it stopped") }
        row("cue", event.cue.joined(separator: ","))
        row("restrict", event.restrictions.joined(separator: ","))
        row("snap", event.snap.joined(separator: ","))
        row("resume offset", event.resumeOffset.map { "\(Seconds.format($0)) s" })
        row("playout limit", event.playoutLimit.map { "\(Seconds.format($0)) s" })
        row("timeline", "occupies \(event.timelineOccupies), style \(event.timelineStyle)")
        row("content may vary", event.contentMayVary ? "YES" : "NO")
        if let skip = event.skipControl {
            row("skip control", [
                skip.offset.map { "offset \(Seconds.format($0)) s" }, skip.duration.map { "duration \(Seconds.format($0)) s" },
                skip.labelID.map { "label \($0)" },
            ].compactMap { $0 }.joined(separator: ", "))
        }
        row("client attributes", event.clientAttributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        let title = "  \(event.id)" + (event.line.map { " (line \($0))" } ?? "")
        return [title] + table.lines(indent: 4)
    }

    private func scheduleLines(_ schedule: [ScheduleEntry]) -> [String] {
        var table = TextTable(header: ["ENTRY", "EVENT", "START", "END", "RESUME AT", "PLAYOUT"])
        for entry in schedule {
            table.append([
                entry.type.rawValue, entry.eventID ?? "-", Seconds.format(entry.start), Seconds.format(entry.end),
                entry.resumeAt.map(Seconds.format) ?? "-",
                "\(Seconds.format(entry.playoutStart))-\(Seconds.format(entry.playoutEnd))",
            ])
        }
        return table.lines()
    }

    private func stitchedLines(_ ranges: [StitchedRange]) -> [String] {
        var table = TextTable(header: ["ID", "START", "DURATION", "SEGMENTS"])
        for range in ranges {
            let segments = range.firstSegment == range.lastSegment ? "\(range.firstSegment)" : "\(range.firstSegment)-\(range.lastSegment)"
            table.append([range.id, Seconds.format(range.start), Seconds.format(range.duration), segments])
        }
        var lines = ranges.isEmpty ? ["  none selected"] : table.lines()
        if let primaryLength {
            let stitched = ranges.reduce(0) { $0 + $1.duration }
            lines.append("  primary length \(Seconds.format(primaryLength)) s (duration minus \(Seconds.format(stitched)) s of stitched ranges)")
        }
        return lines
    }

    private func diagnosticLines() -> [String] {
        guard !diagnostics.isEmpty else { return ["no problems found"] }
        let counts = [Diagnostic.Severity.error, .warning, .info].compactMap { severity -> String? in
            // A capped code's summary stands for the diagnostics it counts.
            let count = diagnostics.reduce(0) { $0 + ($1.severity == severity ? $1.suppressed ?? 1 : 0) }
            return count == 0 ? nil : "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
        }
        var table = TextTable()
        for diagnostic in diagnostics {
            table.append([diagnostic.severity.rawValue, diagnostic.line.map(String.init) ?? "-", diagnostic.code.rawValue, diagnostic.message])
        }
        return ["diagnostics (\(counts.joined(separator: ", ")))"] + table.lines()
    }
}
