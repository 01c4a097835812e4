import Lifecycle

/// The follower and the dispatcher, until the group cancels them.
extension OutboundWebhookService: Service {}

/// Follows the log until the group cancels it.
extension JourneyWebhookFollower: Service {}

/// Sends due deliveries until the group cancels it.
extension WebhookDispatcher: Service {}
