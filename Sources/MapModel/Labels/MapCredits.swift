/// Credit lines shared by whoever composes a frame and whoever draws it.
public enum MapCredits {
    /// The bundled base map's and cities' credit.
    public static let builtIn = "© Natural Earth · GeoNames CC BY 4.0"
}
