import OutboundHTTP

/// An IPv4 or IPv6 address: the outbound HTTP client's, which the destination policy checks and
/// the dispatcher connects to.
public typealias IPAddress = OutboundHTTP.IPAddress
