import EventStore
import Foundation
import Testing

/// Ids from OpenSSL's CSPRNG: the version and variant bits of RFC 9562, and no repeats.
@Suite struct RandomUUIDTests {
    @Test func randomIdsAreVersion4AndDistinct() {
        let ids = (0..<2000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
        // Lowercase text as the engine stores it parses back to the same id.
        #expect(ids.allSatisfy { UUID(uuidString: $0.uuidString.lowercased()) == $0 })
    }

    @Test func v7IdsCarryTheirMillisecondsAndRandomBits() {
        let now = Date(timeIntervalSince1970: 1_767_225_600.123)
        let ids = (0..<2000).map { _ in UUID.v7(now: now) }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(millis == 1_767_225_600_123)
            #expect(bytes[6] >> 4 == 7)
            #expect(bytes[8] >> 6 == 0b10)
        }
        // Later milliseconds sort after earlier ones (the index's right edge).
        let later = UUID.v7(now: now.addingTimeInterval(0.002))
        #expect(later.uuidString > ids[0].uuidString)
    }
}
