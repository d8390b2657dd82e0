// swift-tools-version:6.0
import PackageDescription

/// ClusterMap: data → index → camera → scene → pixels.
/// ClusterCore ← MapModel ← MapRender ← ClusterMapApp; GeoData beside (depends on ClusterCore only).
/// AppSupport: pure, display-free app logic (launch options, event log) shared by the app and its tests.
let package = Package(
    name: "ClusterMap",
    products: [
        .library(name: "ClusterCore", targets: ["ClusterCore"]),
        .executable(name: "clustermap", targets: ["ClusterMapApp"]),
        .executable(name: "clustermap-bench", targets: ["ClusterMapBench"]),
    ],
    targets: [
        .target(name: "ClusterCore"),
        .target(name: "MapModel", dependencies: ["ClusterCore"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "GeoData", dependencies: ["ClusterCore", "CZlib"]),
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .target(name: "MapRender", dependencies: ["ClusterCore", "MapModel", "GeoData", "CCairo"]),
        .target(name: "AppSupport", dependencies: ["ClusterCore", "MapModel", "GeoData", "MapRender"]),
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .executableTarget(
            name: "ClusterMapApp",
            dependencies: ["ClusterCore", "MapModel", "GeoData", "MapRender", "AppSupport", "CGtk"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "ClusterMapBench",
            dependencies: ["ClusterCore", "MapModel", "GeoData", "MapRender"]),
        .testTarget(name: "ClusterCoreTests", dependencies: ["ClusterCore"], exclude: ["Fixtures"]),  // read by path
        .testTarget(name: "MapModelTests", dependencies: ["MapModel"]),
        .testTarget(name: "GeoDataTests", dependencies: ["GeoData"]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRender"],
                    exclude: ["Golden", "Failures", "Fixtures"]),  // golden PNGs; failure output (git-ignored); data excerpts
        .testTarget(name: "AppSupportTests", dependencies: ["AppSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["AppSupport", "MapRender", "CCairo"],
                    exclude: ["Support"]),  // helper scripts the tests run
    ]
)
