/// GeoData: readers for point files (GeoJSON, CSV), the base map and the bundled datasets.
public enum GeoDataModule {}
