import Playback
/// What a run records of one participant for its sync error, from the participant's side of the link:
/// how its primary position moves and whether that side counts it.
///
/// Between two engine events a participant's primary position moves linearly (its rate in primary,
/// still otherwise), and the group position moves linearly between two timeline changes, so e(t) is
/// linear between any two recorded changes. Recording the changes, rather than sampling engines on
/// a tick, gives the sync error exactly and costs a few entries per event.
struct GroupSyncTrace: Sendable {
    /// The primary position at a group time and how fast it moves from there.
    struct Motion: Sendable, Hashable {
        var at: Double
        var position: Double
        /// Primary seconds per group second: the rate while primary plays, 0 otherwise.
        var slope: Double

        func position(at time: Double) -> Double { position + slope * (time - at) }
    }

    private(set) var motions: [Motion] = []
    /// From each time on, whether the participant's own side counts it: loaded, in the group, not in
    /// a break, a stall, or back from one and not yet told where the group is.
    private(set) var counted: [(at: Double, counted: Bool)] = []
    /// Whether the engine last seen will do nothing more on its own: ended, or paused with nothing due
    /// and no media on its way.
    private(set) var settled = false

    /// The engine as seen at `time`; a repeat of the last motion is not kept.
    mutating func observe(_ engine: PlaybackEngine, at time: Double) {
        let slope = engine.isInPrimary ? engine.rate : 0
        let motion = Motion(at: time, position: engine.position, slope: slope)
        if let last = motions.last, last.slope == slope, last.position(at: time) == motion.position {
            // The same line: nothing changed.
        } else if let last = motions.last, last.at == time {
            motions[motions.count - 1] = motion
        } else {
            motions.append(motion)
        }
        settled = !engine.isActive || (engine.rate == 0 && engine.nextDeadline == nil && !engine.isAwaitingMedia)
    }

    /// Whether the participant's own side counts it from `time` on.
    mutating func count(_ value: Bool, at time: Double) {
        guard counted.last?.counted != value else { return }
        if let last = counted.last, last.at == time {
            counted.removeLast()
            if counted.last?.counted == value { return }
        }
        counted.append((time, value))
    }
}

extension GroupSyncTrace {
    /// e(t) while the participant follows, from the group's first timeline (its coordinated start)
    /// to `end`: linear between any two changes of its motion, of either side's view of whether it
    /// follows, or of the group timeline. `following` and `timelines` are in time order, as is the
    /// trace; an entry holds from its time until the next.
    func pieces(following: [(at: Double, following: Bool)], timelines: [(at: Double, timeline: GroupTimeline)], until end: Double)
        -> [GroupReport.SyncPiece]
    {
        guard let start = timelines.first?.at, start < end else { return [] }
        var times = motions.map(\.at) + counted.map(\.at) + following.map(\.at) + timelines.map(\.at)
        times = times.filter { $0 > start && $0 < end } + [start, end]
        times.sort()
        var pieces: [GroupReport.SyncPiece] = []
        var (motion, count, follow, timeline) = (-1, -1, -1, -1)
        /// The last index of `list` whose time is at or before `time`, from `index` on.
        func advance<T>(_ index: inout Int, in list: [T], at time: Double, _ at: (T) -> Double) {
            while index + 1 < list.count, at(list[index + 1]) <= time { index += 1 }
        }
        var previousLine: (motion: Int, timeline: Int)?
        for (from, to) in zip(times, times.dropFirst()) where to > from {
            advance(&motion, in: motions, at: from) { $0.at }
            advance(&count, in: counted, at: from) { $0.at }
            advance(&follow, in: following, at: from) { $0.at }
            advance(&timeline, in: timelines, at: from) { $0.at }
            guard motion >= 0, count >= 0, follow >= 0, counted[count].counted, following[follow].following else {
                previousLine = nil
                continue
            }
            let (moving, group) = (motions[motion], timelines[timeline].timeline)
            let error = { (time: Double) in moving.position(at: time) - group.position(at: time) }
            if let line = previousLine, line.motion == motion, line.timeline == timeline, let last = pieces.last, last.end == from {
                pieces[pieces.count - 1].end = to
                pieces[pieces.count - 1].to = error(to)
            } else {
                pieces.append(GroupReport.SyncPiece(start: from, end: to, from: error(from), to: error(to)))
            }
            previousLine = (motion, timeline)
        }
        return pieces
    }
}
