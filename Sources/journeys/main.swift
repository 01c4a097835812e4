import CLI
import JourneyApp

await CommandLineTool.main(root: JourneysCommand.self, arguments: CommandLine.arguments)
