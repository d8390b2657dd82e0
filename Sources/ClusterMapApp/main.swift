// Before Foundation (which re-exports Glibc): `stdout` is a C global Swift 6 can't check; the
// commands name it on the main thread only.
@preconcurrency import Glibc
import Foundation
import AppSupport
import PostGIS

// Entry point: headless subcommands first (no display, no GTK initialised), then the window.
setvbuf(stdout, nil, _IOLBF, 0)
_ = ProcessClock.processStart

let argv = CommandLine.arguments
let program = "clustermap"

/// Prints a one-line error and exits with status 2 (bad command line).
func failUsage(_ message: String) -> Never {
    ErrorOutput.write(program, message)
    exit(2)
}

switch argv.dropFirst().first {
case "clusters" where argv.dropFirst(2).contains(where: PostGISAddress.looksLikeAddress):
    exit(runPostGISClustersCommand(Array(argv.dropFirst(2))))
case "clusters":
    exit(runClustersCommand(Array(argv.dropFirst(2))))
case "pyramid":
    exit(runPyramidCommand(Array(argv.dropFirst(2))))
case "tiles":
    exit(runTilesCommand(Array(argv.dropFirst(2))))
case "render":
    do {
        let options = try LaunchOptions.parse(Array(argv.dropFirst(2)), mode: .render)
        if options.wantsHelp { print(LaunchOptions.helpText(program: program)); exit(0) }
        exit(runRenderCommand(options))
    } catch {
        failUsage("\(error)")
    }
default:
    let options: LaunchOptions
    do {
        options = try LaunchOptions.parse(Array(argv.dropFirst()))
    } catch {
        failUsage("\(error)")
    }
    if options.wantsHelp { print(LaunchOptions.helpText(program: program)); exit(0) }
    if let problem = mixedSourcesProblem(options.files) { failUsage(problem) }   // a table opens alone (RenderCommand+Database.swift)
    exit(MapApplication.run(options: options, argv: argv))
}
