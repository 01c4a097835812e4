extension RetryPolicy: Codable {
    private enum CodingKeys: String, CodingKey {
        case initialInterval, backoffCoefficient, maximumInterval, maximumAttempts, jitterFraction, nonRetryableCodes
        case captureGrace, abandonAfter, linkLifetime, maximumAge
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            initialInterval: try container.decode(Double.self, forKey: .initialInterval),
            backoffCoefficient: try container.decode(Double.self, forKey: .backoffCoefficient),
            maximumInterval: try container.decode(Double.self, forKey: .maximumInterval),
            maximumAttempts: try container.decode(Int.self, forKey: .maximumAttempts),
            jitterFraction: try container.decode(Double.self, forKey: .jitterFraction),
            nonRetryableCodes: Set(try container.decode([SDKErrorCode].self, forKey: .nonRetryableCodes)),
            // Absent from policies recorded before they existed: the defaults.
            captureGrace: try container.decodeIfPresent(Double.self, forKey: .captureGrace) ?? 600,
            abandonAfter: try container.decodeIfPresent(Double.self, forKey: .abandonAfter) ?? 1800,
            linkLifetime: try container.decodeIfPresent(Double.self, forKey: .linkLifetime) ?? Self.defaultLinkLifetime,
            maximumAge: try container.decodeIfPresent(Double.self, forKey: .maximumAge) ?? Self.defaultMaximumAge
        )
    }

    /// Encodes the codes sorted, so equal policies give equal bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(initialInterval, forKey: .initialInterval)
        try container.encode(backoffCoefficient, forKey: .backoffCoefficient)
        try container.encode(maximumInterval, forKey: .maximumInterval)
        try container.encode(maximumAttempts, forKey: .maximumAttempts)
        try container.encode(jitterFraction, forKey: .jitterFraction)
        try container.encode(nonRetryableCodes.sorted(), forKey: .nonRetryableCodes)
        try container.encode(captureGrace, forKey: .captureGrace)
        try container.encode(abandonAfter, forKey: .abandonAfter)
        // Written only when set otherwise, so policies recorded before it read the same.
        if linkLifetime != Self.defaultLinkLifetime { try container.encode(linkLifetime, forKey: .linkLifetime) }
        if maximumAge != Self.defaultMaximumAge { try container.encode(maximumAge, forKey: .maximumAge) }
    }
}
