import CGtk

/// The chrome's own CSS (banner, loading panel, search results), on top of the GTK theme.
enum ChromeStyle {
    static let css = """
    .cm-banner {
      background-color: @theme_base_color;
      color: @theme_fg_color;
      border-radius: 12px;
      padding: 6px 6px 6px 14px;
      box-shadow: 0 1px 3px alpha(black, 0.25), 0 0 0 1px alpha(black, 0.06);
    }
    .cm-banner.error {
      background-color: mix(@error_color, @theme_base_color, 0.88);
    }
    .cm-banner .cm-banner-icon { margin-top: 8px; color: @theme_selected_bg_color; }
    .cm-banner.error .cm-banner-icon { color: @error_color; }
    .cm-banner label { margin-top: 6px; margin-bottom: 6px; }
    .cm-progress {
      border-radius: 12px;
      padding: 12px 12px 12px 18px;
    }
    .cm-progress progressbar > trough { min-width: 260px; }
    /* The map covers the main window's content (the side panels and the header bar paint their
       own backgrounds), so the window's own fill was a wasted full-window pass per frame. */
    window.cm-main { background: none; }
    .cm-search-results { background: none; }
    .cm-search-results row { border-radius: 6px; }
    /* The selected row is the accent colour: its two lines in the selected text colour, the
       second one only a little dimmer (dim-label grey on blue could not be read). */
    .cm-search-results row:selected { background-color: @theme_selected_bg_color; }
    .cm-search-results row:selected label { color: @theme_selected_fg_color; }
    .cm-search-results row:selected label.dim-label { opacity: 0.85; }
    /* The zoom buttons: one linked group of two 36-px buttons on a card that reads on the light
       and the dark map alike (the theme's OSD slab vanished on the dark map). */
    .cm-zoom {
      border-radius: 10px;
      box-shadow: 0 1px 4px alpha(black, 0.28), 0 0 0 1px alpha(black, 0.10);
    }
    .cm-zoom > button {
      min-width: 36px;
      min-height: 36px;
      padding: 0;
      background: @theme_base_color;
      color: @theme_fg_color;
      border: none;
      box-shadow: none;
    }
    .cm-zoom > button:hover { background: mix(@theme_base_color, @theme_fg_color, 0.08); }
    .cm-zoom > button:active { background: mix(@theme_base_color, @theme_fg_color, 0.16); }
    .cm-zoom > button:first-child { border-radius: 10px 10px 0 0; border-bottom: 1px solid alpha(@theme_fg_color, 0.12); }
    .cm-zoom > button:last-child { border-radius: 0 0 10px 10px; }
    .cm-replay {
      background: alpha(@theme_base_color, 0.94);
      color: @theme_fg_color;
      border-radius: 20px;
      padding: 2px 4px;
      box-shadow: 0 1px 4px alpha(black, 0.28), 0 0 0 1px alpha(black, 0.10);
    }
    .cm-replay button { min-width: 30px; min-height: 30px; padding: 0; }
    /* Opaque: bubbles and names under a see-through card read as smudges (the dark theme's
       card let them through plainly). */
    .cm-legend {
      background: @theme_base_color;
      color: @theme_fg_color;
      border-radius: 10px;
      padding: 6px 10px 8px 10px;
      box-shadow: 0 1px 4px alpha(black, 0.28), 0 0 0 1px alpha(black, 0.10);
    }
    .cm-legend expander title { font-weight: bold; font-size: 0.9em; }
    .cm-inview { border-left: 1px solid alpha(@theme_fg_color, 0.15); }
    .cm-inview.cm-floating {
      border-left: none;
      box-shadow: -2px 0 10px alpha(black, 0.28);
    }
    .cm-drop-target:drop(active) { box-shadow: inset 0 0 0 3px @theme_selected_bg_color; }
    """

    static func install() {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(provider)
    }
}
