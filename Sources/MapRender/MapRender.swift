import CCairo
/// MapRender: draws the base map and a scene with cairo + pango.
public enum MapRenderModule {}
