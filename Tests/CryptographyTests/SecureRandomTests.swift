import Cryptography
import Foundation
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test func lengthsAndDistinctness() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        // 4 KiB of output should use (nearly) every byte value.
        #expect(Set(SecureRandom.bytes(4096)).count > 240)
    }

    @Test func uuidIsVersion4() {
        let uuid = SecureRandom.uuid()
        let text = uuid.uuidString.lowercased()
        #expect(Array(text)[14] == "4")
        #expect("89ab".contains(Array(text)[19]))
        #expect(SecureRandom.uuid() != uuid)
    }
}
