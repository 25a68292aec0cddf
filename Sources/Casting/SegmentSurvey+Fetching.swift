import Foundation
import HLS
import Loading
import Media
import MediaValues

/// The fetching half of a survey: every distinct segment once, a few at a time, analysed and dropped.
extension SegmentSurvey {
    /// One fetch and analysis: a segment and the init section it is demuxed after.
    struct SegmentJob: Hashable, Sendable {
        var segment: ProbeTarget.Part
        var initSection: ProbeTarget.Part?
    }

    /// What fetching and analysing one job found. A struct, not a tuple: task-group results that are
    /// tuples are corrupted by Swift 6.3 release builds (a miscompilation the release-build test run guards against).
    struct Measured: Sendable {
        var index: Int
        var fetch: SegmentFetchResult
        var facts: SegmentFacts?
        var analysisFailure: String?
    }

    /// An init section's bytes, or why it could not be read.
    struct InitSection: Sendable {
        var part: ProbeTarget.Part
        var bytes: Data?
        var failure: String?
    }

    func fetch(_ plans: [RenditionPlan]) async -> [SurveyedRendition] {
        var jobs: [SegmentJob] = []
        var jobIndex: [SegmentJob: Int] = [:]
        var layouts: [[(record: SegmentRecord, job: Int)]] = []
        for plan in plans {
            var layout: [(record: SegmentRecord, job: Int)] = []
            var discontinuity = plan.media.discontinuitySequence
            for (offset, (segment, range)) in zip(plan.media.segments, ProbeTarget.byteRanges(of: plan.media)).enumerated() {
                if segment.discontinuity { discontinuity += 1 }
                guard !segment.isGap else { continue }
                let sequence = plan.media.mediaSequence.addingReportingOverflow(offset).partialValue
                let record = SegmentRecord(
                    url: plan.location.description, mediaSequence: sequence, discontinuitySequence: discontinuity,
                    followsDiscontinuity: segment.discontinuity, extinf: segment.duration, isByteRange: range != nil,
                    fetch: SegmentFetchResult(byteCount: 0, loadSeconds: 0, failure: "not fetched"))
                guard let job = try? job(for: segment, range: range, in: plan) else {
                    var refused = record
                    refused.url = segment.uri
                    refused.fetch.failure = "the URI cannot be resolved against \(plan.location)"
                    layout.append((refused, -1))
                    continue
                }
                var placed = record
                placed.url = job.segment.location.description
                let index = jobIndex[job] ?? {
                    jobs.append(job)
                    jobIndex[job] = jobs.count - 1
                    return jobs.count - 1
                }()
                layout.append((placed, index))
            }
            layouts.append(layout)
        }

        let initSections = await loadInitSections(Set(jobs.compactMap(\.initSection)))
        let slots = LoadSlots(maximumConcurrentFetches)
        let measured = await withTaskGroup(of: Measured.self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask {
                    // The slot's body does not throw; `run` only passes errors through.
                    (try? await slots.run { await measure(job, index: index, initSection: job.initSection.flatMap { initSections[$0] }) })
                        ?? Measured(index: index, fetch: SegmentFetchResult(byteCount: 0, loadSeconds: 0, failure: "not fetched"))
                }
            }
            var results = [Measured?](repeating: nil, count: jobs.count)
            for await result in group { results[result.index] = result }
            return results
        }

        return zip(plans, layouts).map { plan, layout in
            SurveyedRendition(
                role: plan.role, kind: plan.kind, playlist: plan.location.description, targetDuration: plan.media.targetDuration,
                isLive: plan.media.isLive, declaredBandwidth: plan.bandwidth, declaredAverageBandwidth: plan.averageBandwidth,
                declaredDuration: plan.declaredDuration, splicePoints: plan.splicePoints,
                segments: layout.map { entry in
                    guard entry.job >= 0, let found = measured[entry.job] else { return entry.record }
                    var record = entry.record
                    record.fetch = found.fetch
                    record.facts = found.facts
                    record.analysisFailure = found.analysisFailure
                    return record
                })
        }
    }

    private func job(for segment: Segment, range: ResourceRange?, in plan: RenditionPlan) throws(MediaError) -> SegmentJob {
        let part = ProbeTarget.Part(
            location: try ProbeTarget.resolving(segment.uri, against: plan.location), range: range, referrer: .document(plan.location),
            role: "segment")
        return SegmentJob(segment: part, initSection: try segment.map.map { map throws(MediaError) in try ProbeTarget.initSection(map, at: plan.location) })
    }

    private func loadInitSections(_ parts: Set<ProbeTarget.Part>) async -> [ProbeTarget.Part: InitSection] {
        await withTaskGroup(of: InitSection.self) { group in
            for part in parts {
                group.addTask {
                    do throws(LoadingError) {
                        let loaded = try await loader.load(part.location, maximumSize: maximumSegmentSize, referrer: part.referrer, range: part.range)
                        return InitSection(part: part, bytes: loaded.data)
                    } catch {
                        return InitSection(part: part, failure: "init section \(part.location): \(error.reason)")
                    }
                }
            }
            var sections: [ProbeTarget.Part: InitSection] = [:]
            for await section in group { sections[section.part] = section }
            return sections
        }
    }

    /// Fetches one segment, times it, analyses it after its init section, and keeps only the facts.
    private func measure(_ job: SegmentJob, index: Int, initSection: InitSection?) async -> Measured {
        let clock = ContinuousClock()
        let started = clock.now
        let loaded: LoadedResource
        do throws(LoadingError) {
            loaded = try await loader.load(
                job.segment.location, maximumSize: maximumSegmentSize, referrer: job.segment.referrer, range: job.segment.range)
        } catch {
            let status: Int? = if case .httpStatus(let status) = error.reason { status } else { nil }
            let timedOut = if case .timedOut = error.reason { true } else { false }
            return Measured(
                index: index,
                fetch: SegmentFetchResult(
                    status: status, byteCount: 0, loadSeconds: seconds(started.duration(to: clock.now)), failure: error.reason.description,
                    timedOut: timedOut))
        }
        var fetch = SegmentFetchResult(
            status: loaded.response?.status, declaredLength: loaded.response?.declaredLength, contentType: loaded.response?.contentType,
            byteCount: loaded.data.count, loadSeconds: seconds(started.duration(to: clock.now)))
        fetch.firstByteSeconds = loaded.response?.firstByteSeconds
        if let initSection, initSection.bytes == nil {
            return Measured(index: index, fetch: fetch, analysisFailure: initSection.failure)
        }
        let bytes = initSection?.bytes.map { $0 + loaded.data } ?? loaded.data
        do throws(MediaError) {
            let facts = try await SegmentAnalysis.facts(
                of: bytes, input: job.segment.location.description, options: analysisOptions, deadline: .now + .seconds(analysisOptions.timeout))
            return Measured(index: index, fetch: fetch, facts: facts)
        } catch {
            return Measured(index: index, fetch: fetch, analysisFailure: error.reasonText)
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
