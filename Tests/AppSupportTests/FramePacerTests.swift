import XCTest
@testable import AppSupport

/// Frames during a big load: at most one per interval, none lost, one timer at a time.
final class FramePacerTests: XCTestCase {
    func testTheFirstRequestDrawsAtOnce() {
        var pacer = FramePacer(minimumInterval: 0.022)
        XCTAssertEqual(pacer.request(at: 10), .now)
    }

    func testARequestSoonAfterAFrameWaitsForTheRestOfTheInterval() throws {
        var pacer = FramePacer(minimumInterval: 0.022)
        pacer.frameDrawn(at: 10)
        guard case .after(let wait) = pacer.request(at: 10.005) else { return XCTFail("expected a wait") }
        XCTAssertEqual(wait, 0.017, accuracy: 1e-9)
        // More motion before the timer fires: the frame on its way will show it.
        XCTAssertEqual(pacer.request(at: 10.010), .alreadyPending)
        XCTAssertEqual(pacer.request(at: 10.020), .alreadyPending)
        pacer.timerFired()
        XCTAssertEqual(pacer.request(at: 10.023), .now)
    }

    func testAFrameLongAfterTheLastDrawsAtOnce() {
        var pacer = FramePacer(minimumInterval: 0.022)
        pacer.frameDrawn(at: 10)
        XCTAssertEqual(pacer.request(at: 10.5), .now)
    }

    /// Pointer motion every 4 ms for a second, frames drawn at the next 60 Hz refresh after each
    /// request and stamped with that refresh's time, the pacer's timer firing up to 12 ms late:
    /// frames come every second refresh (≈ 30 a second), never more than 33.4 ms apart.
    func testMotionAtAHighRateGivesAFrameEverySecondRefresh() {
        for lateness in [0.0, 0.004, 0.008, 0.012] {
            let frames = simulatedFrames(timerLateness: lateness)
            let gaps = zip(frames.dropFirst(), frames).map { $0 - $1 }
            XCTAssertGreaterThan(frames.count, 26, "timer \(lateness) s late")
            XCTAssertLessThan(frames.count, 34, "paced: about 30 frames a second, not 60")
            XCTAssertLessThanOrEqual(gaps.max() ?? 0, 0.0334, "timer \(lateness) s late")
        }
    }

    private func simulatedFrames(timerLateness: Double) -> [Double] {
        var pacer = FramePacer()
        var frames: [Double] = []
        var asked: Double?          // when GTK was asked for a frame
        var timer: Double?          // when the pacer's timer fires
        let refresh = 1.0 / 60
        var t = 0.0
        while t < 1 {
            if let due = timer, due <= t { pacer.timerFired(); timer = nil; asked = asked ?? due }
            // GTK draws an asked-for frame at the first refresh after the request.
            if let a = asked, (t / refresh).rounded(.down) > (a / refresh).rounded(.down) {
                let frameTime = (t / refresh).rounded(.down) * refresh
                frames.append(frameTime)
                pacer.frameDrawn(at: frameTime)
                asked = nil
            }
            switch pacer.request(at: t) {
            case .now: if asked == nil { asked = t }
            case .after(let s): timer = t + s + timerLateness
            case .alreadyPending: break
            }
            t += 0.004
        }
        return frames
    }
}
