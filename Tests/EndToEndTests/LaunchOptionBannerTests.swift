import Foundation
import XCTest

/// Launch options the window can't apply as asked are said in the banner naming the option and
/// why (review-s16 finding 8), while the rest still loads: `--time` naming a property that is not a
/// date or not there (the time bar says which it reads instead).
final class LaunchOptionBannerTests: XCTestCase {
    func testATimeOptionThatIsNotADateIsSaidAndTheBarReadsTheDate() throws {
        try AppHarness.requireTools()
        for (time, message) in [("mag", "--time 'mag': 'mag' holds numbers, not dates"),
                                ("nope", "--time 'nope': no property 'nope' (there are: when, mag, kind)")] {
            let h = try AppHarness()
            defer { h.stop() }
            let path = h.workDir + "/dated.csv"
            try "lat,lon,when,mag,kind\n1,1,2011-03-11,9.1,a\n2,2,2012-04-11,8.6,b\n".write(toFile: path, atomically: true, encoding: .utf8)
            try h.launch([path, "--time", time], timeout: 60)
            let error = try h.waitForEvent("error", timeout: 30) { ($0["message"] as? String ?? "").hasPrefix("--time") }
            let text = error.event["message"] as? String ?? ""
            XCTAssertTrue(text.contains(message), text)
            XCTAssertTrue(text.hasSuffix("the time bar reads 'when'"), text)
            // The rest loads: both places are on the map.
            let done = try h.waitForEvent("load-done", timeout: 30)
            XCTAssertEqual(done.event["points"] as? Int, 2, "\(done.event)")
        }
    }
}
