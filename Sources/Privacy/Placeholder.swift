// Privacy module.
