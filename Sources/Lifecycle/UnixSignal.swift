#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal that makes a ``ServiceGroup`` shut down gracefully.
public struct UnixSignal: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let sigterm = UnixSignal(rawValue: SIGTERM)
    public static let sigint = UnixSignal(rawValue: SIGINT)
    public static let sigusr1 = UnixSignal(rawValue: SIGUSR1)
    public static let sigusr2 = UnixSignal(rawValue: SIGUSR2)

    public var description: String {
        switch rawValue {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        default: "signal \(rawValue)"
        }
    }
}
