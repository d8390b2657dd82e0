extension TileStyle {
    /// The built-in style for the OpenMapTiles schema.
    public static let openMapTiles: TileStyle = {
        typealias S = ZoomFunction.Stop
        let polygon = StyleFilter.geometry(.polygon)
        let line = StyleFilter.geometry(.lineString)
        func fill(_ id: String, _ layer: String, _ filter: StyleFilter, _ color: StyleColor, minZoom: Double = 0) -> StyleLayer {
            StyleLayer(id, layer, filter: .all([polygon, filter]), minZoom: minZoom, paint: .fill(color))
        }
        var layers: [StyleLayer] = [
            fill("landcover-farmland", "landcover", .in("class", "farmland"), farmland),
            fill("landcover-wood", "landcover", .in("class", "wood", "forest"), wood),
            fill("landcover-grass", "landcover", .all([.in("class", "grass", "wetland"),
                                                       .notEquals(keys: ["subclass"], values: ["park", "garden"])]), grass),
            fill("landcover-park", "landcover", .in("subclass", "park", "garden"), park),
            fill("landcover-sand", "landcover", .in("class", "sand", "beach"), sand),
            fill("landuse-residential", "landuse", .in("class", "residential", "suburb", "neighbourhood"), residential, minZoom: 9),
            fill("landuse-commercial", "landuse", .in("class", "commercial", "retail"), commercial, minZoom: 11),
            fill("landuse-industrial", "landuse", .in("class", "industrial", "railway", "garages", "quarry"), industrial, minZoom: 11),
            fill("landuse-institutional", "landuse", .in("class", "school", "university", "college", "hospital",
                                                        "kindergarten", "library"), institutional, minZoom: 11),
            fill("landuse-cemetery", "landuse", .in("class", "cemetery"), cemetery, minZoom: 11),
            fill("landuse-pitch", "landuse", .in("class", "pitch", "stadium", "playground"), grass, minZoom: 12),
            fill("park", "park", .always, park),
            // Squares and pedestrian areas (polygons among the roads).
            fill("transportation-pedestrian-area", "transportation", .in("subclass", "pedestrian", "platform"), pedestrianArea,
                 minZoom: 13),
            fill("water", "water", .notEquals(keys: ["brunnel"], values: ["tunnel"]), water),
            StyleLayer("waterway-river", "waterway", filter: .all([line, .in("class", "river")]), minZoom: 8,
                       paint: .line(waterway, width: ZoomFunction([S(8, 0.6), S(12, 1.4), S(14, 2.6), S(16, 5)]))),
            StyleLayer("waterway-small", "waterway", filter: .all([line, .notEquals(keys: ["class"], values: ["river"]),
                                                                   .notEquals(keys: ["brunnel"], values: ["tunnel"])]),
                       minZoom: 12, paint: .line(waterway, width: ZoomFunction([S(12, 0.5), S(14, 1.2), S(16, 2.5)]))),
            StyleLayer("building", "building", filter: polygon, minZoom: 14, paint: .fill(building)),
            // Outlines only when over-zoomed: at zoom 14 they double the cost of the densest tiles
            // for a line under half a pixel.
            StyleLayer("building-edge", "building", filter: polygon, minZoom: 15,
                       paint: .line(buildingEdge, width: ZoomFunction([S(14, 0.4), S(16, 0.8)]))),
        ]
        // Tunnels are drawn faint and dashed under the open roads (drawn like open roads they
        // would cut through parks and rivers).
        func roads(_ classes: String...) -> StyleFilter {
            .all([line, .equals(keys: ["class"], values: Set(classes))])
        }
        layers += RoadClass.rules(sourceLayer: "transportation", filters: [
            (.motorway, roads("motorway")), (.trunk, roads("trunk")), (.primary, roads("primary")),
            (.secondary, roads("secondary")), (.tertiary, roads("tertiary")), (.minor, roads("minor")),
            (.service, roads("service", "track")),
            (.pedestrian, .all([roads("path"), .in("subclass", "pedestrian")])),
            (.path, .all([roads("path"), .notEquals(keys: ["subclass"], values: ["pedestrian"])])), (.rail, roads("rail", "transit")),
        ], open: .notEquals(keys: ["brunnel"], values: ["tunnel"]), tunnel: .equals(keys: ["brunnel"], values: ["tunnel"]))
        layers += [
            StyleLayer("boundary-country", "boundary", filter: .all([.in("admin_level", "2"),
                                                                     .notEquals(keys: ["maritime"], values: ["1"])]),
                       paint: .line(boundary, width: ZoomFunction([S(3, 0.8), S(10, 1.4), S(14, 2)]), dash: [5, 2.5])),
            StyleLayer("boundary-region", "boundary", filter: .all([.in("admin_level", "3", "4"),
                                                                    .notEquals(keys: ["maritime"], values: ["1"])]),
                       minZoom: 5, paint: .line(boundary.withOpacity(0.7), width: ZoomFunction([S(5, 0.6), S(14, 1.2)]), dash: [4, 2])),
        ]
        let labels = [
            LabelRule("place", kind: .place, priorities: [
                "country": 120, "state": 90, "city": 100, "town": 80, "village": 60, "suburb": 50,
                "quarter": 35, "hamlet": 40, "neighbourhood": 30, "isolated_dwelling": 10,
            ], defaultPriority: 20, rankKey: "rank"),
            LabelRule("water_name", kind: .water, priorities: ["ocean": 70, "sea": 60, "lake": 40], defaultPriority: 35),
            LabelRule("transportation_name", kind: .road, filter: line, minZoom: 13, priorities: [
                "motorway": 30, "trunk": 29, "primary": 28, "secondary": 25, "tertiary": 22,
                "minor": 18, "service": 10, "path": 8, "track": 6,
            ], defaultPriority: 5),
            // Landmarks among the points of interest (not every shop and café); `rank` orders them.
            LabelRule("poi", kind: .landmark, filter: .all([.geometry(.point), .any([
                .equals(keys: ["class"], values: Set(landmarkPriorities.keys).subtracting(["railway"])),
                .all([.in("class", "railway"), .in("subclass", "station")]),
            ])]), minZoom: 14, priorities: landmarkPriorities, defaultPriority: 15, rankKey: "rank"),
        ]
        return TileStyle(name: "openmaptiles", schema: .openMapTiles, background: land, layers: layers, labels: labels)
    }()
}

extension StyleColor {
    /// The same colour at another opacity.
    public func withOpacity(_ o: Double) -> StyleColor { StyleColor(light, dark, opacity: o) }
}
