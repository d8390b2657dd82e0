import Foundation
import AppSupport

/// `clustermap render --output OUT.png …`: draws what the window would show, with no display.
func runRenderCommand(_ options: LaunchOptions) -> Int32 {
    FileHandle.standardError.write("clustermap render: not implemented yet\n".data(using: .utf8)!)
    return 1
}
