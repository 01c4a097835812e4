import Foundation
import Testing
import Timestamps

/// `RetryAfter.seconds(_:now:)`: delay seconds and the three HTTP-date forms of RFC 9110.
@Suite("Retry-After")
struct RetryAfterTests {
    /// 1_800_000_000 = Fri, 15 Jan 2027 08:00:00 GMT.
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func readsDelaySeconds() {
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 0 ", now: now) == 0)
        #expect(RetryAfter.seconds("99999999999999999999999", now: now) == 1e23)
    }

    @Test func refusesWhatIsNeitherSecondsNorADate() {
        for value in [
            "", "soon", "-1", "+5", "1.5", "12 s", "Fri, 15 Jan 2027 08:01:00 UTC", "Fri, 31 Feb 2027 08:01:00 GMT",
            "Fri, 15 Jan 2027 24:00:00 GMT", "Fri, 15 Foo 2027 08:01:00 GMT", "2027-01-15T08:01:00Z",
        ] {
            #expect(RetryAfter.seconds(value, now: now) == nil, "\(value)")
        }
    }

    @Test func readsAnIMFFixdate() {
        #expect(RetryAfter.seconds("Fri, 15 Jan 2027 08:01:00 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Sat, 16 Jan 2027 08:00:00 GMT", now: now) == 86_400)
        #expect(RetryAfter.seconds("Tue, 29 Feb 2028 00:00:00 GMT", now: now) == 35_395_200)
    }

    @Test func readsTheObsoleteForms() {
        #expect(RetryAfter.seconds("Friday, 15-Jan-27 08:01:00 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Fri Jan 15 08:01:00 2027", now: now) == 60)
        #expect(RetryAfter.seconds("Fri Jan  5 08:00:00 2027", now: now) == 0)
    }

    @Test func aDateInThePastIsNoWait() {
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
        // A two-digit year more than 50 years ahead is the century before: 1994, not 2094.
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 0)
    }
}
