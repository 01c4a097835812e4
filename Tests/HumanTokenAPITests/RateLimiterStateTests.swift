import Foundation
import Testing
@testable import HumanTokenAPI

/// The bucket and queue logic with explicit times: no sleeping, no server.
@Suite("Rate limiter state")
struct RateLimiterStateTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// Whether `decision` is a wait until `seconds` after `t0`, within a microsecond.
    func waits(_ decision: RateLimiterState.Decision, until seconds: Double) -> Bool {
        guard case .wait(let until) = decision else { return false }
        return abs(until.timeIntervalSince(t0) - seconds) < 1e-6
    }

    @Test func burstUpToTheRateThenOneTokenPerInterval() {
        var state = RateLimiterState(rate: 10, now: t0)
        for _ in 0..<10 {
            let ticket = state.enqueue(.background)
            #expect(state.poll(ticket, now: t0) == .proceed)
        }
        let eleventh = state.enqueue(.background)
        #expect(waits(state.poll(eleventh, now: t0), until: 0.1))
        #expect(state.poll(eleventh, now: at(0.1)) == .proceed)
    }

    @Test func liveGoesBeforeEveryWaitingBackgroundTicket() {
        var state = RateLimiterState(rate: 2, now: t0)
        _ = [state.enqueue(.background), state.enqueue(.background)].map { state.poll($0, now: t0) }
        let backgrounds = (0..<3).map { _ in state.enqueue(.background) }
        #expect(waits(state.poll(backgrounds[0], now: t0), until: 0.5))
        // A live ticket arriving later jumps every background ticket.
        let live = state.enqueue(.live)
        #expect(waits(state.poll(live, now: at(0.1)), until: 0.5))
        #expect(waits(state.poll(backgrounds[0], now: at(0.5)), until: 1.0))
        #expect(state.poll(live, now: at(0.5)) == .proceed)
        #expect(state.poll(backgrounds[0], now: at(1.0)) == .proceed)
    }

    @Test func backgroundNeverOvertakesWaitingLiveTickets() {
        var state = RateLimiterState(rate: 1, now: t0)
        #expect(state.poll(state.enqueue(.live), now: t0) == .proceed)
        let background = state.enqueue(.background)
        var served: [String] = []
        var lives: [UInt64] = []
        // A steady stream of live tickets: background gets a token only once none waits.
        for second in 1...5 {
            lives.append(state.enqueue(.live))
            if state.poll(background, now: at(Double(second))) == .proceed { served.append("background") }
            if let head = lives.first, state.poll(head, now: at(Double(second))) == .proceed {
                served.append("live")
                lives.removeFirst()
            }
        }
        #expect(served == ["live", "live", "live", "live", "live"])
        #expect(state.poll(background, now: at(6)) == .proceed)
    }

    @Test func backgroundIsServedInArrivalOrder() {
        var state = RateLimiterState(rate: 1, now: t0)
        #expect(state.poll(state.enqueue(.background), now: t0) == .proceed)
        let first = state.enqueue(.background)
        let second = state.enqueue(.background)
        #expect(waits(state.poll(second, now: at(1)), until: 2))
        #expect(state.poll(first, now: at(1)) == .proceed)
        #expect(state.poll(second, now: at(2)) == .proceed)
    }

    @Test func pauseServesNobodyUntilItEndsThenRefillsFromEmpty() {
        var state = RateLimiterState(rate: 10, now: t0)
        state.pause(until: at(3), now: t0)
        let live = state.enqueue(.live)
        #expect(waits(state.poll(live, now: at(1)), until: 3.1))
        #expect(waits(state.poll(live, now: at(3)), until: 3.1))
        #expect(state.poll(live, now: at(3.1)) == .proceed)
    }

    @Test func cancelledTicketsLeaveTheQueue() {
        var state = RateLimiterState(rate: 1, now: t0)
        #expect(state.poll(state.enqueue(.live), now: t0) == .proceed)
        let gaveUp = state.enqueue(.live)
        let background = state.enqueue(.background)
        #expect(state.waiting == 2)
        state.cancel(gaveUp)
        #expect(state.waiting == 1)
        #expect(state.poll(background, now: at(1)) == .proceed)
    }

    @Test func slowRatesStillAllowOneRequest() {
        var state = RateLimiterState(rate: 0.5, now: t0)
        #expect(state.capacity == 1)
        #expect(state.poll(state.enqueue(.live), now: t0) == .proceed)
        let next = state.enqueue(.live)
        #expect(waits(state.poll(next, now: t0), until: 2))
    }
}
