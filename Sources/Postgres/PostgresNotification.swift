/// A NOTIFY message received on a LISTEN channel.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    public let backendPID: Int32

    public init(channel: String, payload: String, backendPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.backendPID = backendPID
    }
}
