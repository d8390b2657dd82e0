# A GTK 3 window whose button drags one file (text/uri-list), for the drop end-to-end test:
# xdotool presses on it and releases over ClusterMap, a real XDND drag between two toolkits.
import sys, gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk, Gdk
uri = 'file://' + sys.argv[1]
w = Gtk.Window(title='DragSource')
w.set_default_size(200, 100)
w.move(1350, 50)
b = Gtk.Button(label='drag me')
b.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
b.drag_source_add_uri_targets()
def get(widget, ctx, data, info, time): data.set_uris([uri])
b.connect('drag-data-get', get)
w.add(b)
w.connect('destroy', Gtk.main_quit)
w.show_all()
Gtk.main()
