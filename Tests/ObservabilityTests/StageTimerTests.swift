import Observability
import Testing

@Suite struct StageTimerTests {
    @Test func nestedStagesAreExcludedFromTheirOuterStageAndRepeatsAreSummed() {
        let timer = StageTimer()
        timer.measure("outer") {
            timer.record("inner", .milliseconds(40))
            timer.measure("inner") { timer.record("deep", .milliseconds(5)) }
        }
        timer.record("inner", .milliseconds(2))
        let stages = Dictionary(uniqueKeysWithValues: timer.stages.map { ($0.name, $0.duration) })
        #expect(timer.stages.map(\.name) == ["inner", "deep", "outer"])
        #expect(stages["deep"] == .milliseconds(5))
        // "inner" holds 40 + 2 ms and its measured run less the 5 ms recorded inside it.
        #expect(stages["inner"]! >= .milliseconds(37))
        // Own times add up to the outer run plus the 2 ms recorded after it.
        let total = timer.stages.reduce(Duration.zero) { $0 + $1.duration }
        #expect(total >= .milliseconds(2))
        #expect(total < .milliseconds(2) + .seconds(5))
    }

    @Test func theStaticMeasureTimesOnlyInsideATimedTask() async throws {
        let untimed = await StageTimer.measure("stage") { () async -> Int in 1 }
        #expect(untimed == 1)
        let timer = StageTimer()
        let value = try await StageTimer.$current.withValue(timer) {
            try await StageTimer.measure("stage") { () async throws -> Int in
                await Task.yield()  // the stage spans a suspension
                return 2
            }
        }
        #expect(value == 2)
        #expect(timer.stages.map(\.name) == ["stage"])
        #expect(timer.stages[0].duration > .zero)
        #expect(StageTimer.measure("elsewhere", in: nil) { 3 } == 3)
    }
}
