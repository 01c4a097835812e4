// HumanTokenAPI module.
