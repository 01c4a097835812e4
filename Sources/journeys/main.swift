import CLI
import JourneyCommands

await CommandLineTool.main(root: JourneysCommand.self, arguments: CommandLine.arguments)
