/// Every benchmark `make bench` runs, in order. Add a benchmark here.
func allBenchmarks() -> [any Benchmark] {
    [
        ParseBenchmark(), StartupBenchmark(), InspectScaleBenchmark(), ProbeBenchmark(), ValidateBenchmark(), SimulationBenchmark(), GroupSimulationBenchmark(),
        GroupSyncBenchmark(), PlaybackInfoBenchmark(), FetchMemoryBenchmark(), PacedFleetBenchmark(),
        RealtimeFleetBenchmark(), IsolationBenchmark(), FleetScaleBenchmark(), ConsoleBenchmark(), AirPlay2Benchmark(),
    ]
}
