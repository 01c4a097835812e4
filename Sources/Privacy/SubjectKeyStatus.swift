import Foundation

/// Where a subject's data key stands: never created, live, or erased (a tombstone).
public enum SubjectKeyStatus: Sendable, Hashable {
    /// Nothing was ever sealed for the subject.
    case unknown
    /// The key exists; the subject's sealed fields open.
    case live
    /// The key was wiped at that time; the subject's sealed fields no longer open.
    case erased(at: Date)
}
