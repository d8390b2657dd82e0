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
        case .untyped:
            report.skip(.unsupportedGeometry, at: position)
        case .other:
            commitPlaced(position: position)
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
            builder.addPoint(GeoCoordinate(latitude: cur.lat, longitude: cur.lon), offset: cur.start,
                             position: position, category: cat, numeric: num)
        case .multiPoint:
            guard cur.shape == .positions else {
                report.skip(cur.shape == .deeper ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            var began = false
            var cat: Int32 = -1
            var num = Double.nan
            for k in multiLon.indices {
                if let reason = GeoJSONReader.validate(lon: multiLon[k], lat: multiLat[k], status: multiStatus[k]) {
                    report.skip(reason, at: position)
                    continue
                }
                if !began {
                    (cat, num) = beginRecord()
                    began = true
                }
                builder.addPoint(GeoCoordinate(latitude: multiLat[k], longitude: multiLon[k]), offset: cur.start,
                                 position: position, category: cat, numeric: num)
            }
        }
    }

    /// A LineString, Polygon, GeometryCollection…: shown at a point on it by the rule GDAL's
    /// path uses (`GeoJSONPlacement`), counted in `report.placed`.
    mutating func commitPlaced(position: Int) {
        // `"coordinates": []` is no coordinates, as for a Point (OGR would not build it at all).
        if cur.shape == .empty {
            report.skip(.noCoordinates, at: position)
            return
        }
        placedX.removeAll(keepingCapacity: true)
        placedY.removeAll(keepingCapacity: true)
        guard let kind = GeoJSONPlacement.place(p, from: cur.geometryStart, to: cur.geometryEnd, xs: &placedX, ys: &placedY) else {
            report.skip(.unsupportedGeometry, at: position)
            return
        }
        switch kind {
        case .empty: report.skip(.noCoordinates, at: position); return
        case .invalid: report.skip(.notANumber, at: position); return
        case .point, .line, .polygon, .other: break
        }
        var began = false
        var cat: Int32 = -1
        var num = Double.nan
        for k in placedX.indices {
            if let reason = GeoJSONReader.validate(lon: placedX[k], lat: placedY[k], status: .ok) {
                report.skip(reason, at: position)
                continue
            }
            if !began {
                (cat, num) = beginRecord()
                began = true
            }
            builder.addPoint(GeoCoordinate(latitude: placedY[k], longitude: placedX[k]), offset: cur.start,
                             position: position, category: cat, numeric: num)
        }
        if began { report.placed.count(kind) }
    }

    /// Notes which optional fields the record has (they are decoded from the file when asked
    /// for); returns its category index and numeric value.
    mutating func beginRecord() -> (Int32, Double) {
        if GeoJSONReader.hasText(cur.name.isSet ? cur.name : cur.title) { builder.fields.insert(.name) }
        if GeoJSONReader.hasText(cur.label) { builder.fields.insert(.label) }
        if GeoJSONReader.hasText(cur.description) { builder.fields.insert(.description) }
        if GeoJSONReader.hasText(cur.markerColor) { builder.fields.insert(.markerColor) }
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

    /// Whether a property span decodes to a non-empty text (an escape always gives a character).
    @inline(__always)
    static func hasText(_ s: Span) -> Bool { s.isSet && s.end > s.start }
}
