extension TileStyle {
    /// The built-in style for the Protomaps basemap schema, in the same look as `openMapTiles`.
    ///
    /// Reads `pmap:kind` (builds up to 2023) and `kind` (later builds) alike, and the raw OSM tags
    /// the older builds carry where `pmap:kind` is only `other`.
    public static let protomaps: TileStyle = {
        typealias S = ZoomFunction.Stop
        let polygon = StyleFilter.geometry(.polygon)
        let line = StyleFilter.geometry(.lineString)
        let kind = ["pmap:kind", "kind"]
        func kindIs(_ values: String...) -> StyleFilter { .equals(keys: kind, values: Set(values)) }
        func fill(_ id: String, _ layer: String, _ filter: StyleFilter, _ color: StyleColor, minZoom: Double = 0) -> StyleLayer {
            StyleLayer(id, layer, filter: .all([polygon, filter]), minZoom: minZoom, paint: .fill(color))
        }
        var layers: [StyleLayer] = []
        // Natural cover ("natural" in older builds, "landcover" in newer ones).
        for layer in ["natural", "landcover"] {
            layers += [
                fill("\(layer)-farmland", layer, .any([kindIs("farmland"), .in("landuse", "farmland", "orchard", "vineyard")]), farmland),
                fill("\(layer)-wood", layer, .any([kindIs("forest", "wood"), .in("landuse", "forest"), .in("natural", "wood")]), wood),
                fill("\(layer)-grass", layer, .any([kindIs("grassland", "scrub", "meadow"), .in("landuse", "meadow", "grass"),
                                                    .in("natural", "scrub", "grassland", "heath", "wetland")]), grass),
                fill("\(layer)-sand", layer, .any([kindIs("sand", "beach", "barren"), .in("natural", "sand", "beach")]), sand),
                fill("\(layer)-park", layer, .in("leisure", "park"), park),
            ]
        }
        // Land use ("landuse" in the tiles; some metadata calls it "land").
        for layer in ["landuse", "land"] {
            layers += [
                fill("\(layer)-residential", layer, .any([kindIs("residential"), .in("landuse", "residential")]), residential, minZoom: 9),
                fill("\(layer)-farmland", layer, .any([kindIs("farmland"), .in("landuse", "farmland", "orchard", "vineyard")]), farmland),
                fill("\(layer)-commercial", layer, .any([kindIs("commercial", "retail"), .in("landuse", "commercial", "retail")]),
                     commercial, minZoom: 11),
                fill("\(layer)-industrial", layer, .any([kindIs("industrial", "railway"), .in("landuse", "industrial", "railway")]),
                     industrial, minZoom: 11),
                fill("\(layer)-institutional", layer, kindIs("school", "university", "college", "hospital", "kindergarten"),
                     institutional, minZoom: 11),
                fill("\(layer)-cemetery", layer, .any([kindIs("cemetery"), .in("landuse", "cemetery")]), cemetery, minZoom: 11),
                fill("\(layer)-grass", layer, .all([.notEquals(keys: kind, values: ["park", "nature_reserve", "national_park"]),
                                                    .any([.in("landuse", "grass", "meadow", "recreation_ground", "greenfield"),
                                                          .in("leisure", "pitch", "garden", "playground", "dog_park")])]),
                     grass, minZoom: 11),
                fill("\(layer)-park", layer, kindIs("park", "nature_reserve", "national_park", "garden", "golf_course"), park),
                // Squares (later builds give them their own kind).
                fill("\(layer)-pedestrian", layer, .any([kindIs("pedestrian", "plaza"), .in("highway", "pedestrian"),
                                                         .in("place", "square")]), pedestrianArea, minZoom: 13),
            ]
        }
        layers += [
            fill("water", "water", .always, water),
            StyleLayer("waterway-river", "physical_line", filter: .all([line, .in("waterway", "river")]), minZoom: 8,
                       paint: .line(waterway, width: ZoomFunction([S(8, 0.6), S(12, 1.4), S(14, 2.6), S(16, 5)]))),
            StyleLayer("waterway-small", "physical_line", filter: .all([line, .in("waterway", "canal", "stream", "ditch", "drain")]),
                       minZoom: 12, paint: .line(waterway, width: ZoomFunction([S(12, 0.5), S(14, 1.2), S(16, 2.5)]))),
            StyleLayer("building", "buildings", filter: polygon, minZoom: 14, paint: .fill(building)),
            // Outlines only when over-zoomed (see the OpenMapTiles style).
            StyleLayer("building-edge", "buildings", filter: polygon, minZoom: 15,
                       paint: .line(buildingEdge, width: ZoomFunction([S(14, 0.4), S(16, 0.8)]))),
        ]
        let notTunnel = StyleFilter.notEquals(keys: ["tunnel"], values: ["yes", "true", "1"])
        func roads(_ f: StyleFilter) -> StyleFilter { .all([line, f]) }
        let paths = StyleFilter.any([kindIs("path"), .in("highway", "footway", "path", "cycleway", "steps",
                                                         "track", "bridleway", "corridor")])
        // Pedestrian streets and squares (the lanes of an old town): drawn as wide as streets,
        // paler than the buildings, not as footpaths.
        let pedestrian = StyleFilter.in("highway", "pedestrian")
        layers += RoadClass.rules(sourceLayer: "roads", filters: [
            (.motorway, roads(kindIs("highway"))),
            (.trunk, roads(.all([kindIs("major_road"), .in("highway", "trunk", "trunk_link")]))),
            (.primary, roads(.all([kindIs("major_road"), .notEquals(keys: ["highway"], values: ["trunk", "trunk_link"])]))),
            (.secondary, roads(kindIs("medium_road"))),
            (.minor, roads(.all([kindIs("minor_road"), .notEquals(keys: ["highway"], values: ["service"])]))),
            (.service, roads(.any([.all([kindIs("minor_road"), .in("highway", "service")]),
                                   .all([kindIs("other"), .in("highway", "service", "living_street", "unclassified")])]))),
            (.pedestrian, roads(.all([.notEquals(keys: kind, values: ["highway", "major_road", "medium_road"]), pedestrian]))),
            (.path, roads(.all([.notEquals(keys: kind, values: ["highway", "major_road", "medium_road", "minor_road"]), paths]))),
        ], open: notTunnel, tunnel: .equals(keys: ["tunnel"], values: ["yes", "true", "1"]))
        layers += RoadClass.rules(sourceLayer: "transit", filters: [
            (.rail, .all([line, notTunnel, .any([kindIs("railway", "rail"), .in("railway", "rail", "light_rail", "tram")])])),
        ])
        // Countries and regions only, as in the OpenMapTiles style: municipal borders are clutter.
        let bigBorders = StyleFilter.any([.equals(keys: ["pmap:min_admin_level", "admin_level"], values: ["2", "3", "4"]),
                                          kindIs("country", "region")])
        layers.append(StyleLayer("boundaries", "boundaries", filter: .all([line, bigBorders]), minZoom: 3,
                                 paint: .line(boundary, width: ZoomFunction([S(3, 0.8), S(10, 1.4), S(14, 2)]), dash: [5, 2.5])))
        let landmarkKeys = ["pmap:kind", "kind", "tourism", "amenity", "railway", "historic"]
        let labels = [
            LabelRule("places", kind: .place, classKeys: kind, priorities: [
                "country": 120, "region": 90, "city": 100, "town": 80, "village": 60, "suburb": 50,
                "hamlet": 40, "neighbourhood": 30, "locality": 25,
            ], defaultPriority: 5, rankKey: "pmap:rank"),
            LabelRule("water", kind: .water, filter: .all([polygon, .has("name")]), minZoom: 10,
                      classKeys: ["natural", "water"], priorities: ["bay": 50, "water": 40], defaultPriority: 35),
            LabelRule("physical_line", kind: .water, filter: .all([line, .has("name")]), minZoom: 11,
                      classKeys: ["waterway"], priorities: ["river": 38], defaultPriority: 20),
            LabelRule("roads", kind: .road, filter: .all([line, .has("name")]), minZoom: 13, classKeys: kind, priorities: [
                "highway": 30, "major_road": 28, "medium_road": 24, "minor_road": 18, "path": 8,
            ], defaultPriority: 8),
            // Landmarks: sights and stations among the points of interest (older builds keep the
            // OSM tags, later ones a `kind`), and named buildings (the 2023 builds name the
            // Uffizi, Palazzo Vecchio and Santa Croce there, not among the points).
            LabelRule("pois", kind: .landmark, filter: .all([.geometry(.point), .has("name"), .any(landmarkKeys.map {
                .equals(keys: [$0], values: Set(landmarkPriorities.keys))
            })]), minZoom: 14, classKeys: landmarkKeys, priorities: landmarkPriorities, defaultPriority: 15),
            {
                var big = LabelRule("buildings", kind: .landmark, filter: .all([polygon, .has("name")]), minZoom: 14, defaultPriority: 16)
                big.minimumSize = 28  // about 100 m at zoom 14: the Uffizi, Santa Croce, not every palazzo
                return big
            }(),
        ]
        return TileStyle(name: "protomaps", schema: .protomaps, background: land, layers: layers, labels: labels)
    }()
}
