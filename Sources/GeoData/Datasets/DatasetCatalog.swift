/// A dataset that ships with the app (in `data/points`).
public struct Dataset: Sendable, Equatable, Identifiable {
    /// How the app colours this dataset's places and bubbles.
    public enum Coloring: Sendable, Equatable {
        /// One colour (or `marker-color` / `category` when present).
        case plain
        /// By the point's category (`PointSet.categoryNames`).
        case category
        /// By the numeric property (`PointSet.numericValues`), e.g. magnitude.
        case numeric(property: String)
    }

    /// Short stable name, for `--dataset NAME` and saved settings.
    public let id: String
    /// Title for menus.
    public let title: String
    /// File name under `data/points`.
    public let fileName: String
    /// Attribution to show on the map while the dataset is shown.
    public let attribution: String
    /// Licence in a few words.
    public let license: String
    /// How to colour it.
    public let coloring: Coloring
    /// Options to load it with (numeric / category properties).
    public let loadOptions: LoadOptions
    /// How many points it has (checked by the tests).
    public let expectedCount: Int
    /// Whether it opens fitted to its data (as files do). Only the default world cities open on
    /// the whole world, the first impression of a launch without a file.
    public var opensFitted = true
    /// What one of its places is called, singular and plural ("earthquake", "earthquakes"), for
    /// tooltips, the screen reader and the In View list.
    public var noun = (singular: "place", plural: "places")
    /// Whether its places are kept out of clustering, each drawn on its own at every zoom (as
    /// efremidze/Cluster's `shouldClusterAnnotation` and the stay apps do for priced places).
    public var keepsPlacesApart = false

    public static func == (a: Dataset, b: Dataset) -> Bool { a.id == b.id }

    /// Path of the file inside a data directory (the folder that holds `points/`).
    public func path(in dataDirectory: String) -> String {
        dataDirectory + "/points/" + fileName
    }

    /// Loads it from `dataDirectory` (see `DataDirectory.locate()`).
    public func load(from dataDirectory: String, progress: (@Sendable (Double) -> Void)? = nil,
                     isCancelled: (@Sendable () -> Bool)? = nil) throws -> PointSet {
        try PointSetLoader.load(path: path(in: dataDirectory), options: loadOptions,
                                progress: progress, isCancelled: isCancelled)
    }
}

/// The bundled datasets.
public enum DatasetCatalog {
    /// GeoNames attribution required by CC BY 4.0.
    public static let geoNamesAttribution = "Contains data from GeoNames (https://www.geonames.org/), CC BY 4.0"
    /// Base-map credit (public domain; customary).
    public static let naturalEarthAttribution = "Made with Natural Earth"

    /// Every bundled dataset, default first.
    public static let all: [Dataset] = [
        Dataset(id: "world-cities", title: "World cities", fileName: "geonames_cities1000.csv",
                attribution: geoNamesAttribution, license: "CC BY 4.0", coloring: .plain,
                loadOptions: LoadOptions(numericProperty: "population"), expectedCount: 170_391,
                opensFitted: false, noun: ("city", "cities")),
        Dataset(id: "earthquakes", title: "Earthquakes 1965–2016", fileName: "earthquakes_usgs_1965_2016.csv",
                attribution: "Earthquakes: USGS (U.S. public domain)", license: "Public domain",
                coloring: .numeric(property: "mag"),
                loadOptions: LoadOptions(numericProperty: "mag"), expectedCount: 23_412,
                noun: ("earthquake", "earthquakes")),
        Dataset(id: "airports", title: "Airports", fileName: "airports.csv",
                attribution: "Airports: airportsdata (MIT licence, see data/licenses/airportsdata-MIT-LICENSE.txt)",
                license: "MIT", coloring: .category,
                loadOptions: LoadOptions(numericProperty: "elevation_ft", categoryProperty: "has_iata",
                                         categoryLabels: ["1": "With IATA code", "0": "Without IATA code"]),
                expectedCount: 28_298, noun: ("airport", "airports")),
        Dataset(id: "london", title: "London neighbourhoods", fileName: "london_places_8km.csv",
                attribution: geoNamesAttribution, license: "CC BY 4.0", coloring: .plain,
                loadOptions: LoadOptions(numericProperty: "population"), expectedCount: 74),
        Dataset(id: "madrid", title: "Madrid day out", fileName: "madrid.geojson",
                attribution: "Madrid demo: ClusterMap", license: "CC0 (ours)", coloring: .category,
                loadOptions: LoadOptions(), expectedCount: 9),
        Dataset(id: "lisbon", title: "Lisbon stays", fileName: "lisbon.geojson",
                attribution: "Lisbon demo: ClusterMap", license: "CC0 (ours)", coloring: .plain,
                loadOptions: LoadOptions(numericProperty: "price_usd"), expectedCount: 6, noun: ("stay", "stays"),
                keepsPlacesApart: true),
    ]

    /// The dataset shown when the app starts without a file.
    public static var defaultDataset: Dataset { all[0] }

    /// The dataset with this id, if any.
    public static func dataset(id: String) -> Dataset? { all.first { $0.id == id } }
}
