import Foundation
import JourneyApp

/// A loopback port free right now: the demo's service listens on it so the emulator, started
/// first, can send Unico's webhooks there.
enum DemoPort {
    static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw AppError(.invalidInput, "no socket for the demo's webhook port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw AppError(.invalidInput, "no free loopback port for the demo's webhooks") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
