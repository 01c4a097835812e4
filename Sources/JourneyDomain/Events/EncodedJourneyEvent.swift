import Foundation

/// An event as stored: its type string and its JSON data.
public struct EncodedJourneyEvent: Hashable, Sendable {
    public var type: String
    public var data: Data

    public init(type: String, data: Data) {
        self.type = type
        self.data = data
    }
}
