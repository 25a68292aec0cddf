/// Every benchmark `make bench` runs, in order. Add a benchmark here.
func allBenchmarks() -> [any Benchmark] {
    [ParseBenchmark(), InspectScaleBenchmark(), ProbeBenchmark(), SimulationBenchmark(), GroupSimulationBenchmark(), PlaybackInfoBenchmark(), FetchMemoryBenchmark()]
}
