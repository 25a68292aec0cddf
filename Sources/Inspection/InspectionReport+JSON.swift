extension InspectionReport {
    /// The report as one JSON document, keys sorted, ending with a newline.
    ///
    /// Sorted so that a diff of two reports shows only what changed. Written by `PrettyJSON`, not
    /// Foundation's encoder: on a large playlist the encoder cost a third of the command.
    public func renderedJSON() -> String {
        // Encoding plain values with no custom failure paths cannot throw; a non-finite number cannot
        // reach the report (the parser range-checks every number it reads).
        ((try? PrettyJSON.text(self)) ?? "{}") + "\n"
    }
}

// The types a report holds thousands of write themselves; PrettyJSONTests checks every one against
// what Foundation's encoder makes of the same value.

extension InspectionReport.Interstitial: PrettyJSONWritable {
    func writeJSON(indent: Int, into output: inout String) {
        var object = PrettyJSON.Object(indent: indent)
        object.add("assetDurations", assetDurations)
        object.add("assetList", assetList)
        object.add("assetURI", assetURI)
        object.add("cancelled", cancelled)
        object.add("clientAttributes", ClientAttributes(values: clientAttributes))
        object.add("contentMayVary", contentMayVary)
        object.add("cue", cue)
        object.add("duration", duration)
        object.add("durationIsEstimate", durationIsEstimate)
        object.add("durationSource", durationSource.rawValue)
        object.add("id", id)
        object.add("line", line)
        object.add("playoutLimit", playoutLimit)
        object.add("restrictions", restrictions)
        object.add("resumeOffset", resumeOffset)
        object.add("skipControl", skipControl)
        object.add("snap", snap)
        object.add("start", start)
        object.add("startDate", startDate)
        object.add("timelineOccupies", timelineOccupies)
        object.add("timelineStyle", timelineStyle)
        object.write(into: &output)
    }

    /// The X- attributes, by name in byte order.
    struct ClientAttributes: PrettyJSONWritable {
        var values: [String: InspectionReport.ClientAttributeValue]

        func writeJSON(indent: Int, into output: inout String) {
            var object = PrettyJSON.Object(indent: indent)
            for name in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                switch values[name]! {
                case .number(let number): object.add(name, number)
                case .string(let text): object.add(name, text)
                }
            }
            object.write(into: &output)
        }
    }
}

extension InspectionReport.SkipControl: PrettyJSONWritable {
    func writeJSON(indent: Int, into output: inout String) {
        var object = PrettyJSON.Object(indent: indent)
        object.add("duration", duration)
        object.add("labelID", labelID)
        object.add("offset", offset)
        object.write(into: &output)
    }
}

extension InspectionReport.ScheduleEntry: PrettyJSONWritable {
    func writeJSON(indent: Int, into output: inout String) {
        var object = PrettyJSON.Object(indent: indent)
        object.add("end", end)
        object.add("eventID", eventID)
        object.add("playoutEnd", playoutEnd)
        object.add("playoutStart", playoutStart)
        object.add("resumeAt", resumeAt)
        object.add("start", start)
        object.add("type", type.rawValue)
        object.write(into: &output)
    }
}
