import ClusterCore

// Turning what a feature said into points and a record, or into a counted skip.
extension GeoJSONReader {
    @inline(__always)
    static func validate(lon: Double, lat: Double, status: PositionStatus) -> LoadReport.SkipReason? {
        switch status {
        case .tooFew: return .noCoordinates
        case .notANumber: return .notANumber
        case .ok:
            if lon.isNaN || lat.isNaN { return .notANumber }
            if !(abs(lat) <= 90 && abs(lon) <= 180) { return .outOfRange }
            return nil
        }
    }

    mutating func commit(position: Int) {
        switch cur.kind {
        case .missing, .null:
            report.skip(.nullGeometry, at: position)
        case .other, .untyped:
            report.skip(.unsupportedGeometry, at: position)
        case .point:
            guard cur.shape == .position else {
                report.skip(cur.shape == .deeper || cur.shape == .positions ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            if let reason = GeoJSONReader.validate(lon: cur.lon, lat: cur.lat, status: cur.status) {
                report.skip(reason, at: position)
                return
            }
            let (cat, num) = beginRecord()
            builder.addPoint(GeoCoordinate(latitude: cur.lat, longitude: cur.lon), record: builder.recordCount - 1,
                             position: position, category: cat, numeric: num)
        case .multiPoint:
            guard cur.shape == .positions else {
                report.skip(cur.shape == .deeper ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            var record = -1
            var cat: Int32 = -1
            var num = Double.nan
            for k in multiLon.indices {
                if let reason = GeoJSONReader.validate(lon: multiLon[k], lat: multiLat[k], status: multiStatus[k]) {
                    report.skip(reason, at: position)
                    continue
                }
                if record < 0 {
                    (cat, num) = beginRecord()
                    record = builder.recordCount - 1
                }
                builder.addPoint(GeoCoordinate(latitude: multiLat[k], longitude: multiLon[k]), record: record,
                                 position: position, category: cat, numeric: num)
            }
        }
    }

    /// Appends the record's columns; returns its category index and numeric value.
    mutating func beginRecord() -> (Int32, Double) {
        _ = builder.beginRecord(rawStart: cur.propsStart, rawEnd: cur.propsEnd, idStart: cur.idStart, idEnd: cur.idEnd)
        GeoJSONReader.append(p, cur.name.isSet ? cur.name : cur.title, to: &builder.names)
        GeoJSONReader.append(p, cur.label, to: &builder.labels)
        GeoJSONReader.append(p, cur.description, to: &builder.descriptions)
        GeoJSONReader.append(p, cur.markerColor, to: &builder.markerColors)
        var cat: Int32 = -1
        let catSpan = categoryKey != nil ? cur.categoryOverride : (cur.category.isSet ? cur.category : cur.markerSymbol)
        if catSpan.isSet && catSpan.end > catSpan.start {
            if !catSpan.escaped && categoryLabels.isEmpty {
                cat = builder.categories.index(p, from: catSpan.start, to: catSpan.end)
            } else {
                var text = JSONStringDecoder.string(p, from: catSpan.start, to: catSpan.end, hasEscapes: catSpan.escaped)
                if let mapped = categoryLabels[text] { text = mapped }
                cat = builder.categories.index(text)
            }
        }
        return (cat, cur.numeric)
    }

    @inline(__always)
    static func append(_ p: UnsafePointer<UInt8>, _ s: Span, to column: inout StringColumn) {
        if s.isSet {
            column.appendJSON(p, from: s.start, to: s.end, hasEscapes: s.escaped)
        } else {
            column.appendEmpty()
        }
    }
}
