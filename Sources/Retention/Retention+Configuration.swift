import Foundation

extension Retention {
    /// A deployment's retention policy and how it is applied.
    public struct Configuration: Sendable, Equatable {
        /// Whether the workers apply the policy on their schedule. Default true.
        public var enabled: Bool
        /// Days after a subject's last journey ended (completed or abandoned) before the subject
        /// is erased. Default 365.
        public var eraseAfterDays: Int
        /// Hours after an idempotency key's answer was stored before the answer is purged. Default 24.
        public var idempotencyAnswerHours: Int
        /// Days after a journey ended before the sealed `webAppToken`, process `token` and `link`
        /// of its attempts are dropped from the read model. Default 7.
        public var tokenDays: Int
        /// Days after an idempotency key was answered or released before its row is deleted (a
        /// replay after that starts a new journey). Default 30; at least the answer's hours.
        public var idempotencyKeyDays: Int
        /// Days after a webhook delivery was delivered or given up before its row is deleted. Default 30.
        public var webhookDeliveryDays: Int
        /// Time between scheduled runs. Default 1 h.
        public var interval: Duration
        /// Rows (subjects, answers, journeys) handled per statement or transaction. Default 200.
        public var batchSize: Int

        public init(
            enabled: Bool = true, eraseAfterDays: Int = 365, idempotencyAnswerHours: Int = 24, tokenDays: Int = 7,
            interval: Duration = .seconds(3600), batchSize: Int = 200, idempotencyKeyDays: Int = 30,
            webhookDeliveryDays: Int = 30
        ) {
            self.idempotencyKeyDays = idempotencyKeyDays
            self.webhookDeliveryDays = webhookDeliveryDays
            self.enabled = enabled
            self.eraseAfterDays = eraseAfterDays
            self.idempotencyAnswerHours = idempotencyAnswerHours
            self.tokenDays = tokenDays
            self.interval = interval
            self.batchSize = batchSize
        }

        /// The reason each erasure records, e.g. `retention: 365 days after the last journey ended`.
        public var erasureReason: String { "retention: \(eraseAfterDays) days after the last journey ended" }

        /// Subjects whose last journey ended before this are erased.
        public func erasureCutoff(now: Date) -> Date { now.addingTimeInterval(-Double(eraseAfterDays) * 86_400) }
        /// Idempotency answers stored before this are purged.
        public func idempotencyCutoff(now: Date) -> Date { now.addingTimeInterval(-Double(idempotencyAnswerHours) * 3600) }
        /// Journeys that ended before this lose their attempts' sealed tokens and links.
        public func tokenCutoff(now: Date) -> Date { now.addingTimeInterval(-Double(tokenDays) * 86_400) }

        /// Idempotency keys answered or released before this are deleted.
        public func idempotencyKeyCutoff(now: Date) -> Date { now.addingTimeInterval(-Double(idempotencyKeyDays) * 86_400) }
        /// Webhook deliveries delivered or given up before this are deleted.
        public func webhookDeliveryCutoff(now: Date) -> Date { now.addingTimeInterval(-Double(webhookDeliveryDays) * 86_400) }

        /// Throws `invalid_configuration` naming the first unusable setting.
        public func validate() throws {
            func check(_ ok: Bool, _ field: String, _ message: String) throws {
                if !ok { throw RetentionError(.invalidConfiguration, "\(field) \(message)", field: field) }
            }
            try check(
                Self.dayRange.contains(eraseAfterDays), "eraseAfterDays", "must be a whole number of days in \(Self.dayRange)")
            try check(
                Self.hourRange.contains(idempotencyAnswerHours), "idempotencyAnswerHours",
                "must be a whole number of hours in \(Self.hourRange)")
            try check(
                Self.dayRange.contains(idempotencyKeyDays), "idempotencyKeyDays",
                "must be a whole number of days in \(Self.dayRange)")
            try check(
                idempotencyKeyDays * 24 >= idempotencyAnswerHours, "idempotencyKeyDays",
                "must not end before the stored answer's \(idempotencyAnswerHours) hours")
            try check(
                Self.dayRange.contains(webhookDeliveryDays), "webhookDeliveryDays",
                "must be a whole number of days in \(Self.dayRange)")
            try check(Self.dayRange.contains(tokenDays), "tokenDays", "must be a whole number of days in \(Self.dayRange)")
            try check(
                interval >= .seconds(Self.intervalRange.lowerBound) && interval <= .seconds(Self.intervalRange.upperBound),
                "interval", "must be \(Self.intervalRange) seconds")
            try check(Self.batchRange.contains(batchSize), "batchSize", "must be in \(Self.batchRange)")
        }

        static let dayRange = 1...36_500
        static let hourRange = 1...876_000
        static let intervalRange = 60...604_800
        static let batchRange = 1...100_000
    }
}
