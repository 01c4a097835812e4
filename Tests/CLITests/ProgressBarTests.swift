@testable import CLI
import Testing

@Suite("Progress bar")
struct ProgressBarTests {
    @Test func formatsABarWithPercentRateAndETA() {
        let text = ProgressBar.bar(label: "append", done: 4200, total: 10000, elapsed: .seconds(2), width: 20)
        #expect(text == "append [########------------]  42% 4200/10000 2.1k/s ETA 0:03")
    }

    @Test func formatsAPlainLineAndSummary() {
        #expect(
            ProgressBar.line(label: "append", done: 500, total: 1000, elapsed: .seconds(50))
                == "append: 50% (500/1000), 10/s, ETA 0:50")
        #expect(
            ProgressBar.summary(label: "append", done: 1000, elapsed: .milliseconds(7500))
                == "append: 1000 done in 0:08, 133/s")
    }

    @Test func formatsRates() {
        #expect(ProgressBar.rate(done: 0, elapsed: .zero) == "-/s")
        #expect(ProgressBar.rate(done: 15, elapsed: .seconds(2)) == "7.5/s")
        #expect(ProgressBar.rate(done: 420, elapsed: .seconds(1)) == "420/s")
        #expect(ProgressBar.rate(done: 3_400_000, elapsed: .seconds(1)) == "3.4M/s")
        #expect(ProgressBar.rate(done: Int.max, elapsed: .nanoseconds(1)).hasSuffix("M/s"))
    }

    @Test func formatsETAs() {
        #expect(ProgressBar.eta(done: 0, total: 10, elapsed: .seconds(5)) == "--:--")
        #expect(ProgressBar.eta(done: 10, total: 10, elapsed: .seconds(5)) == "0:00")
        #expect(ProgressBar.eta(done: 1, total: 3601, elapsed: .seconds(1)) == "1:00:00")
        #expect(ProgressBar.eta(done: 1, total: Int.max, elapsed: .seconds(1)) == ">99h")
        #expect(ProgressBar.clock(65.2) == "1:06")
        #expect(ProgressBar.clock(3725) == "1:02:05")
    }

    @Test func emptyWorkIsComplete() {
        #expect(ProgressBar.bar(label: "x", done: 0, total: 0, elapsed: .zero, width: 4) == "x [####] 100% 0/0 -/s ETA 0:00")
    }

    @Test func terminalRedrawsInPlaceAtMostEveryInterval() {
        var bar = ProgressBar(total: 100, label: "load", interactive: true, output: .error, configuration: .init())
        #expect(bar.advance(done: 1, elapsed: .milliseconds(50)) == nil)
        let first = bar.advance(done: 10, elapsed: .milliseconds(100))
        #expect(first?.hasPrefix("\rload [##") == true)
        #expect(first?.hasSuffix("\n") == false)
        #expect(bar.advance(done: 20, elapsed: .milliseconds(150)) == nil)
        #expect(bar.advance(done: 100, elapsed: .milliseconds(160))?.contains("100%") == true)
        #expect(bar.finish(elapsed: .milliseconds(170))?.hasSuffix(" ETA 0:00\n") == true)
        #expect(bar.finish(elapsed: .seconds(1)) == nil)
        #expect(bar.advance(done: 100, elapsed: .seconds(2)) == nil)
    }

    @Test func plainOutputWritesOccasionalLines() {
        var bar = ProgressBar(total: 100, label: "load", interactive: false, output: .error, configuration: .init())
        #expect(bar.advance(done: 10, elapsed: .seconds(1)) == nil)
        #expect(bar.advance(done: 50, elapsed: .seconds(5)) == "load: 50% (50/100), 10/s, ETA 0:05\n")
        #expect(bar.advance(done: 100, elapsed: .seconds(6)) == nil)
        #expect(bar.finish(elapsed: .seconds(8)) == "load: 100 done in 0:08, 13/s\n")
    }

    @Test func clampsProgressToTheTotal() {
        var bar = ProgressBar(total: 10, label: "x", interactive: false, output: .error, configuration: .init())
        _ = bar.advance(done: 25, elapsed: .seconds(1))
        #expect(bar.done == 10)
        _ = bar.advance(done: -3, elapsed: .seconds(2))
        #expect(bar.done == 0)
    }
}
