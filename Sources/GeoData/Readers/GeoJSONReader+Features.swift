// The document: a FeatureCollection, a single Feature or a sequence of Features, and the
// members of each feature.
extension GeoJSONReader {
    mutating func parse() throws {
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { pos = 3 }
        skipSequenceSeparators()
        if pos >= end { throw GeoDataError(kind: .empty, fileName: fileName, message: "the file is empty") }
        guard p[pos] == UInt8(ascii: "{") else {
            throw error("not a GeoJSON object: expected '{' at the start, found \(describeByte(at: pos))", kind: .notGeoJSON)
        }
        var topType: String?
        var sawFeatures = false
        cur = FeatureState()
        cur.start = pos
        if enterContainer(closedBy: UInt8(ascii: "}")) {
            do {
                repeat {
                    let key = try scanMemberName()
                    if GeoJSONReader.keyIs(p, key, .type) {
                        guard p[pos] == 34 else { throw error("\"type\" must be a string", kind: .notGeoJSON) }
                        let s = try scanString()
                        topType = JSONStringDecoder.string(p, from: s.start, to: s.end, hasEscapes: s.escaped)
                    } else if GeoJSONReader.keyIs(p, key, .features) {
                        guard p[pos] == UInt8(ascii: "[") else {
                            throw error("\"features\" must be an array, found \(describeByte(at: pos))", kind: .notGeoJSON)
                        }
                        let topLevelFeature = cur   // the members of a top-level Feature, if any
                        do {
                            try parseFeatures()
                        } catch let cut as Truncation {
                            // SPEC §9: the complete features before the cut still load, and it is said.
                            guard cut.featuresRead > 0 else { throw cut.error }
                            report.itemsRead += cut.featuresRead
                            report.warnings.append(cut.message)
                            report.pointsLoaded = builder.coordinates.count
                            return
                        }
                        cur = topLevelFeature
                        sawFeatures = true
                    } else if try !parseFeatureMember(key, depth: 1) {
                        try skipValue(depth: 1)
                    }
                } while try nextElementFollows(closer: UInt8(ascii: "}"),
                                               expecting: "',' or '}' after a member of the top-level object")
            } catch let e as GeoDataError where sawFeatures && endsCutShort(e) && report.itemsRead > 0 {
                // Cut after the whole features list (only the closing brace or a later member lost).
                report.warnings.append("the file ends at byte \(formatCount(end)) before its last '}' (truncated?): all \(formatCount(report.itemsRead)) features read")
                report.pointsLoaded = builder.coordinates.count
                return
            }
        }
        skipSequenceSeparators()
        if pos < end {
            // More after one Feature: newline-delimited GeoJSON, whose bad lines are skipped.
            guard topType == "Feature" else {
                throw error("unexpected \(describeByte(at: pos)) after the end of the GeoJSON object")
            }
            try parseFeatureSequence()
            return
        }
        switch topType {
        case "FeatureCollection":
            guard sawFeatures else {
                throw GeoDataError(kind: .notGeoJSON, fileName: fileName, message: "a FeatureCollection without a \"features\" array")
            }
        case "Feature":
            featureIndex = 0
            report.itemsRead = 1
            commit(position: 0)
        case nil:
            guard sawFeatures else {
                throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                                   message: "not GeoJSON: the top-level object has no \"type\" and no \"features\"")
            }
        case let t?:
            throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                               message: "not a GeoJSON FeatureCollection or Feature (the top-level type is \"\(MessageText.excerpt(t))\")")
        }
        report.pointsLoaded = builder.coordinates.count
    }

    /// A GeoJSON text sequence (RFC 8142) or newline-delimited GeoJSON: one Feature after
    /// another. The first one, already read as the top-level object, is feature 0. A line that
    /// is not a Feature (broken JSON, a stray value) is skipped and counted with its line number,
    /// like a bad CSV row; the features after it still load.
    mutating func parseFeatureSequence() throws {
        featureIndex = 0
        commit(position: 0)
        featureIndex = nil
        var index = 1
        var lines = LineCounter()
        while pos < end {
            let start = pos
            do {
                guard p[pos] == UInt8(ascii: "{") else {
                    throw expected("a Feature object '{' (the file is a sequence of GeoJSON features)")
                }
                try parseFeature(index: index)
                index += 1
            } catch let e as GeoDataError where e.kind == .syntax || e.kind == .notGeoJSON || e.kind == .invalidUTF8 {
                // Resume at the next line after the one the bad record started on.
                featureIndex = nil
                report.skip(.badLine, at: lines.line(of: start, in: p))
                var next = start
                while next < end && p[next] != 10 && p[next] != 0x1E { next += 1 }
                pos = next
                try ticker.tick(pos)
            }
            skipSequenceSeparators()
        }
        report.itemsRead = index
        report.pointsLoaded = builder.coordinates.count
    }

    /// The `features` array; its '[' is at `pos`.
    mutating func parseFeatures() throws {
        guard enterContainer(closedBy: UInt8(ascii: "]")) else { return }
        if let parallel, let chunks = parallel.chunks(p, from: pos, to: end) {
            try parseFeaturesInParallel(parallel, chunks: chunks)
            return
        }
        report.itemsRead += try parseFeatureRun(firstIndex: 0, stopAt: Int.max).count
    }

    /// Reads the elements of the `features` array from `pos` (an element's start) until the
    /// array ends (`closed`) or the next element would start at or after `stopAt`; `pos` is then
    /// that element's start. Returns how many features were read; they are numbered from
    /// `firstIndex`.
    /// - Throws: `Truncation` when the file ends inside the array (the features before are kept).
    mutating func parseFeatureRun(firstIndex: Int, stopAt: Int) throws -> (count: Int, closed: Bool) {
        var index = firstIndex
        do {
            return try parseFeatureRun(index: &index, stopAt: stopAt, firstIndex: firstIndex)
        } catch let e as GeoDataError where endsCutShort(e) {
            // Inside a feature the error names it; between two (after a ',') it names none.
            throw Truncation(featuresRead: index, insideFeature: e.featureIndex != nil, fileEnd: end, error: e)
        }
    }

    private mutating func parseFeatureRun(index: inout Int, stopAt: Int, firstIndex: Int) throws -> (count: Int, closed: Bool) {
        while true {
            var featureRead = false
            if let plain = layoutPlain, let fixed = layoutFixed {
                switch try readPlainRun(plain, fixed: fixed, index: &index, stopAt: stopAt) {
                case .reachedStop: return (index - firstIndex, false)
                case .featureRead: featureRead = true
                case .differs: break
                }
            }
            if !featureRead {
                guard p[pos] == UInt8(ascii: "{") else {
                    // A file that ends here ends between features: it names none.
                    featureIndex = pos < end ? index : nil
                    throw expected("a feature object '{'")
                }
                try parseFeature(index: index)
                index += 1
            }
            if try !nextElementFollows(closer: UInt8(ascii: "]"), expecting: "',' or ']' after a feature") {
                return (index - firstIndex, true)
            }
            if pos >= stopAt { return (index - firstIndex, false) }
        }
    }

    /// Whether `e` only says the file stops early: it is at the end, or in a last token the end
    /// cut short (`fals`, `1.`, half a UTF-8 character, `\u00`) — at most 32 bytes with no ',', ']', '}',
    /// ':' or blank after them.
    func endsCutShort(_ e: GeoDataError) -> Bool {
        guard let at = e.byteOffset, at >= end - 32 else { return false }
        for i in at..<end {
            switch p[i] {
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), 32, 9, 10, 13: return false
            default: continue
            }
        }
        return true
    }

    /// Reads feature number `index` (its '{' is at `pos`), naming it in errors, and commits its
    /// points; then reports progress.
    mutating func parseFeature(index: Int) throws {
        featureIndex = index
        try readFeatureMembers()
        commit(position: index)
        featureIndex = nil
        try ticker.tick(pos)
    }

    /// Reads the members of the feature object at `pos` (its '{') into `cur`.
    @inline(__always)
    mutating func parseFeatureMembers(depth: Int) throws {
        cur = FeatureState()
        cur.start = pos
        if enterContainer(closedBy: UInt8(ascii: "}")) {
            repeat {
                let key = try scanMemberName()
                if try !parseFeatureMember(key, depth: depth) {
                    try skipValue(depth: depth)
                }
            } while try nextElementFollows(closer: UInt8(ascii: "}"), expecting: "',' or '}' after a member of the feature")
        }
    }

    /// Reads `geometry`, `properties` or `id`; returns false for other members (not consumed).
    mutating func parseFeatureMember(_ key: Span, depth: Int) throws -> Bool {
        let n = key.end - key.start
        let esc = key.escaped
        if (esc || n == 8) && GeoJSONReader.keyIs(p, key, .geometry) {
            try parseGeometry(depth: depth + 1)
            return true
        }
        if (esc || n == 10) && GeoJSONReader.keyIs(p, key, .properties) {
            let c = p[pos]
            if c == UInt8(ascii: "{") {
                try parseProperties(depth: depth + 1)
            } else if c == UInt8(ascii: "n") {
                try expectLiteral("null")
            } else {
                throw expected("\"properties\" to be an object or null")
            }
            return true
        }
        if (esc || n == 2) && GeoJSONReader.keyIs(p, key, .id) {
            let s = pos
            let c = p[pos]
            try skipValue(depth: depth + 1)
            // Only string and number ids are kept (RFC 7946 §3.2); others are ignored.
            if c == 34 || GeoJSONReader.startsNumber(c) {
                cur.idStart = s
                cur.idEnd = pos
            }
            return true
        }
        return false
    }
}

/// The file ends inside the `features` array (a download or copy cut short): how many features
/// were read whole before it (from the array's start; a parallel chunk's reader counts from its
/// chunk until `shifted`), and the error it would have been.
struct Truncation: Error {
    var featuresRead: Int
    /// Whether a feature had begun (else the cut is between features).
    var insideFeature: Bool
    /// The file's length (where it ends).
    var fileEnd: Int
    var error: GeoDataError

    /// "the file ends in the middle of feature 4 (byte 1,234): the 3 features before it are
    /// read", features counted from 1 as in every message.
    var message: String {
        let at = "byte \(formatCount(fileEnd))"
        let read = "\(formatCount(featuresRead)) \(featuresRead == 1 ? "feature" : "features")"
        if insideFeature {
            return "the file ends in the middle of feature \(formatCount(featuresRead + 1)) (\(at), truncated?): the \(read) before it are read"
        }
        return "the file ends after feature \(formatCount(featuresRead)) (\(at), truncated?), before the list of features is closed: \(read) read"
    }

    /// The same cut, with features counted from `base` more.
    func shifted(by base: Int) -> Truncation {
        var t = self
        t.featuresRead += base
        t.error.featureIndex = t.error.featureIndex.map { $0 + base }
        return t
    }
}

/// 1-based line numbers of increasing offsets, counting each byte once.
struct LineCounter {
    private var line = 1
    private var counted = 0

    mutating func line(of offset: Int, in p: UnsafePointer<UInt8>) -> Int {
        while counted < offset {
            if p[counted] == 10 { line += 1 }
            counted += 1
        }
        return line
    }
}
