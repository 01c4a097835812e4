#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Wakes an exchange's `poll` when its caller is cancelled: a pipe whose read end every wait
/// watches, written once by ``fire()``. Its descriptors live as long as the signal, so a late
/// ``fire()`` never writes to a reused descriptor.
final class CancelSignal: Sendable {
    /// Watched for `POLLIN` by every wait.
    let readEnd: Int32
    private let writeEnd: Int32
    private let fired = Atomic<Bool>(false)

    init() throws(OutboundHTTPError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw OutboundHTTPError(.connectionLost, "no pipe for the request: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Whether ``fire()`` was called.
    var isFired: Bool { fired.load(ordering: .acquiring) }

    /// Marks the exchange cancelled and wakes its wait; later calls do nothing.
    func fire() {
        guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
