import ArgumentParser
import MockAPIServer

// `--log-format text|json`; the values are the enum's raw values.
extension RequestLogOptions.Format: ExpressibleByArgument {}
