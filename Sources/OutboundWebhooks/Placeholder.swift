// OutboundWebhooks module.
