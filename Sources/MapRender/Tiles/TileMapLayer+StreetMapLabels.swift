import MapModel

/// The tile layer offers its names and credit to the composition (`MapPresentation.setStreetMap`).
extension TileMapLayer: StreetMapLabels {}
