// swift-tools-version:6.2
import PackageDescription

/// ClusterMap: data → index → camera → scene → pixels. Arrows point down:
/// Compression ← GeoData ← Tiles ← TilesOnline; ClusterCore ← GeoData, MapModel, PostGIS; Compression ← Tiles;
/// MapModel + GeoData + Tiles ← MapRender; MapModel + GeoData ← AppSupport; AppSupport + MapRender
/// ← MapStill; all of them ← ClusterMapApp (the only target that imports GTK).
/// AppSupport: display-free application logic shared by the app, `clustermap render` and the tests:
/// `MapPresentation` (what the map shows, composed once; it measures text through MapModel's
/// `MapTextMeasuring`, which the renderer implements), data sessions, launch options, saved
/// state, the event log. MapStill draws a presentation as one still picture.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
let cKernelSettings: [CSetting] = [.unsafeFlags(["-gdwarf-4"]), .unsafeFlags(["-O2"], .when(configuration: .debug))]

let package = Package(
    name: "ClusterMap",
    products: [
        .library(name: "ClusterCore", targets: ["ClusterCore"]),
        .library(name: "Tiles", targets: ["Tiles"]),
        .executable(name: "clustermap", targets: ["ClusterMapApp"]),
        .executable(name: "clustermap-bench", targets: ["ClusterMapBench"]),
    ],
    targets: [
        // The index build's dense-level neighbour sweep (branch-free; optimised in debug too).
        .target(name: "CIndexSweep", cSettings: cKernelSettings),
        .target(name: "ClusterCore", dependencies: ["CIndexSweep"]),
        .target(name: "MapModel", dependencies: ["ClusterCore"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Whole-buffer gzip (vector tiles): about twice zlib's inflate speed.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // gzip/zlib decompression (`Gzip`), shared by GeoData's gzipped base map and Tiles' gzipped
        // tiles and PMTiles directories, so that neither needs the other for it; gzip compression
        // (`GzipCompressor`) of the tiles and directories Tiles writes.
        .target(name: "Compression", dependencies: ["CZlib", "CDeflate"], swiftSettings: optimisedInDebug),
        // The readers and the base-map label loading parse tens of megabytes: optimised even in debug
        // builds, so that the test run (which loads the 1:10m map and its labels) stays quick.
        // GDAL/OGR in process: every vector format GDAL reads (issue 30). Its headers (libgdal-dev),
        // and libgdal loaded with dlopen on first use, not linked (see include/cgdal.h).
        .target(name: "CGDAL"),
        .target(name: "GeoData", dependencies: ["ClusterCore", "Compression", "CGDAL"], swiftSettings: optimisedInDebug),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Display-free tiles: tile math, cache, MBTiles/PMTiles sources, MVT decoding, styles as data.
        // MapModel for `DisplayText` (names and credits from a file made safe to draw); no GeoData.
        .target(name: "Tiles", dependencies: ["MapModel", "Compression", "CSQLite"]),
        .systemLibrary(name: "CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        // Online XYZ tiles over libsoup (needs a GLib main context, not GTK).
        .target(name: "TilesOnline", dependencies: ["Tiles", "CSoup"]),
        // PostgreSQL's client library: PostGIS tables as data sources (the server does the counting).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "PostGIS", dependencies: ["ClusterCore", "GeoData", "CPostgres"]),
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // JPEG and WebP raster tiles (PNG is read by cairo); display-free.
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0",
                       providers: [.apt(["libgdk-pixbuf-2.0-dev", "webp-pixbuf-loader"])]),
        // C kernels, optimised in debug builds too (so that the tests' frames and tiles run at release
        // speed), with DWARF 4, which Debian 12's valgrind reads (with clang's default DWARF 5
        // callgrind gives up on the binary).
        // The tile rasteriser's compositing pass: AVX2 where the processor has it (checked at run
        // time), a portable copy giving the same pixels elsewhere.
        .target(name: "CTileRaster", cSettings: cKernelSettings),
        // Sprite compositing kernels (AVX2 / AVX-512 checked at run time, and a portable one).
        .target(name: "CSpriteBlend", cSettings: cKernelSettings),
        // Optimised in debug too: the window draws every frame with it (see `OffscreenFrame`), and the
        // end-to-end tests drive the debug build.
        .target(name: "MapRender", dependencies: ["MapModel", "GeoData", "Tiles", "CCairo", "CGdkPixbuf",
                                                  "CTileRaster", "CSpriteBlend"],
                swiftSettings: optimisedInDebug),
        .target(name: "AppSupport", dependencies: ["ClusterCore", "MapModel", "GeoData"],
                swiftSettings: optimisedInDebug),
        // Still pictures of what a `MapPresentation` shows, drawn by MapRender (`clustermap render`,
        // the golden tests).
        .target(name: "MapStill", dependencies: ["AppSupport", "MapModel", "GeoData", "MapRender"]),
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .executableTarget(
            name: "ClusterMapApp",
            dependencies: ["ClusterCore", "MapModel", "GeoData", "MapRender", "AppSupport", "MapStill", "Tiles", "TilesOnline", "CGtk",
                           "PostGIS", "Compression"],
            // Swift 6 mode; the GTK side is main-actor code, so main-actor isolation is the default
            // here and what runs off the GTK thread says so (`nonisolated`, ARCHITECTURE §4).
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),
        .executableTarget(
            name: "ClusterMapBench",
            dependencies: ["ClusterCore", "MapModel", "GeoData", "MapRender", "AppSupport", "Tiles", "PostGIS"]),
        .testTarget(name: "ClusterCoreTests", dependencies: ["ClusterCore"], exclude: ["Fixtures"]),  // read by path
        .testTarget(name: "MapModelTests", dependencies: ["MapModel"]),
        .testTarget(name: "GeoDataTests", dependencies: ["GeoData"]),
        .testTarget(name: "CompressionTests", dependencies: ["Compression"]),
        // The test targets' golden-image comparator and pixel diff (not part of the app).
        .target(name: "GoldenSupport", dependencies: ["MapRender", "CCairo"], path: "Tests/GoldenSupport"),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRender", "Tiles", "AppSupport", "MapStill", "GoldenSupport", "TileTestSupport"],
                    exclude: ["Golden", "Failures", "Fixtures"]),  // golden PNGs; failure output (git-ignored); data excerpts
        // Tile test helpers shared by TilesTests, MapRenderTests and TilesOnlineTests: an MVT writer, an
        // MBTiles writer, a temporary folder, a seeded PRNG, the loopback tile server (its script stays
        // in TilesTests/Support, beside the fixtures).
        .target(name: "TileTestSupport", dependencies: ["CSQLite"], path: "Tests/TileTestSupport"),
        .testTarget(name: "TilesTests", dependencies: ["Tiles", "TilesOnline", "MapRender", "Compression", "CSQLite", "CCairo", "CSoup",
                                                     "CTileRaster", "GoldenSupport", "TileTestSupport"],
                    exclude: ["Fixtures", "Golden", "Failures", "Support"]),  // fixtures; goldens; failure output; test server
        .testTarget(name: "TilesOnlineTests", dependencies: ["TilesOnline", "Tiles", "CSoup", "TileTestSupport"]),
        .testTarget(name: "PostGISTests", dependencies: ["PostGIS", "ClusterCore", "GeoData"]),
        .testTarget(name: "AppSupportTests", dependencies: ["AppSupport", "MapRender", "MapStill"]),
        // Depends on the app so that building the tests builds the `clustermap` they run (never a stale one).
        .testTarget(name: "EndToEndTests", dependencies: ["AppSupport", "MapRender", "CCairo", "ClusterMapApp"],
                    exclude: ["Support"]),  // helper scripts the tests run
    ]
)
