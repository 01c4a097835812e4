// JourneyClient module.
