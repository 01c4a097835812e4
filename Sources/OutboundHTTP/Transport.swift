/// A connection an exchange writes its request to and reads the answer from: the socket itself
/// (`http`) or TLS over it (`https`).
protocol Transport: AnyObject {
    /// Sends every byte of `bytes` before `deadline`.
    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(OutboundHTTPError)
    /// Reads what is there, waiting until `deadline` for something; 0 at the connection's end.
    func read(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError)
        -> Int
}
