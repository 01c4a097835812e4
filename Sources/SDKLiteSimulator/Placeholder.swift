// SDKLiteSimulator module.
