extension CommandParser {
    /// Parses the words after a leaf command's name against its declaration.
    static func parseArguments(
        _ words: [String], for configuration: CommandConfiguration, commandPath: [String]
    ) throws(UsageError) -> ParsedArguments {
        func failure(_ code: UsageError.Code, _ message: String) -> UsageError {
            UsageError(code: code, message: message, commandPath: commandPath)
        }
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var optionsEnded = false
        var index = words.startIndex

        while index < words.endIndex {
            let word = words[index]
            index += 1
            if optionsEnded || !isOptionLike(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let body = word.dropFirst(2)
            let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inlineValue = parts.count == 2 ? String(parts[1]) : nil

            if word.hasPrefix("--"), configuration.flag(named: name) != nil {
                if inlineValue != nil {
                    throw failure(.unexpectedArgument, "flag '--\(name)' does not take a value")
                }
                if !flags.insert(name).inserted {
                    throw failure(.duplicateOption, "flag '--\(name)' given more than once")
                }
            } else if word.hasPrefix("--"), let option = configuration.option(named: name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.endIndex, !words[index].hasPrefix("--") {
                    value = words[index]
                    index += 1
                } else {
                    throw failure(.missingValue, "missing value for option '--\(name) <\(option.valueName)>'")
                }
                if values[name] != nil, !option.isRepeatable {
                    throw failure(.duplicateOption, "option '--\(name)' given more than once")
                }
                values[name, default: []].append(value)
            } else {
                let candidates = configuration.options.map(\.name) + configuration.flags.map(\.name)
                throw unknownOption(word, candidates: candidates, commandPath: commandPath)
            }
        }

        for option in configuration.options where option.isRequired && values[option.name] == nil {
            throw failure(.missingArgument, "missing required option '--\(option.name) <\(option.valueName)>'")
        }
        var remaining = positionals[...]
        for positional in configuration.positionals {
            if positional.isRepeatable, !remaining.isEmpty {
                values[positional.name] = Array(remaining)
                remaining = []
            } else if let value = remaining.popFirst() {
                values[positional.name] = [value]
            }
            if positional.isRequired, values[positional.name] == nil {
                throw failure(.missingArgument, "missing required argument '<\(positional.name)>'")
            }
        }
        if let extra = remaining.first {
            throw failure(.unexpectedArgument, "unexpected argument '\(extra)'")
        }
        return ParsedArguments(
            commandPath: commandPath, configuration: configuration, values: values, flags: flags)
    }

    /// Whether a word is an option rather than a value: it starts with `-`, is not `-` alone,
    /// and is not a negative number.
    static func isOptionLike(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-" && Double(word) == nil
    }
}
