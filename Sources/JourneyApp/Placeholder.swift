// JourneyApp module.
