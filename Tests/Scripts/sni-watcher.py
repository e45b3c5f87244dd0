#!/usr/bin/python3
# A StatusNotifierWatcher with a host in small, for tests (python3-gi, Gio): owns
# org.kde.StatusNotifierWatcher on the session bus of DBUS_SESSION_BUS_ADDRESS, accepts
# RegisterStatusNotifierItem as KDE's watcher does, and reads each item the way a panel does:
# its properties (Properties.GetAll) and its menu (com.canonical.dbusmenu GetLayout), again
# after each of the item's signals (NewStatus, NewToolTip, NewIcon, NewTitle, LayoutUpdated).
# Prints one JSON line per thing it learns:
#   {"ready": true}                                       once it owns the name
#   {"registered": SERVICE, "sender": UNIQUE}             an item registered
#   {"item": {...}, "menu": [...], "sender": UNIQUE}      the item as read now: Status, ToolTip
#                                                         (title, text), IconName, Menu, Title, Id,
#                                                         Category, ItemIsMenu; the menu's items
#                                                         (id, label, enabled, type)
import json
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
    <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
    <signal name="StatusNotifierItemUnregistered"><arg type="s"/></signal>
    <signal name="StatusNotifierHostRegistered"/>
  </interface>
</node>
"""

items = []
bus = None


def record(entry):
    print(json.dumps(entry), flush=True)


def plain(value):
    """A GLib.Variant's value as JSON can hold it."""
    if isinstance(value, GLib.Variant):
        value = value.unpack()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return len(value)
    return value


def read_item(sender, path):
    properties = bus.call_sync(sender, path, "org.freedesktop.DBus.Properties", "GetAll",
                               GLib.Variant("(s)", ("org.kde.StatusNotifierItem",)), None,
                               Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
    tooltip = properties.get("ToolTip")
    item = {
        "Status": properties.get("Status"), "IconName": properties.get("IconName"), "Title": properties.get("Title"),
        "Id": properties.get("Id"), "Category": properties.get("Category"), "ItemIsMenu": properties.get("ItemIsMenu"),
        "Menu": properties.get("Menu"), "ToolTip": [tooltip[2], tooltip[3]] if tooltip else None,
        "IconPixmapSizes": [[w, h, len(data)] for w, h, data in properties.get("IconPixmap", [])],
    }
    menu = []
    if properties.get("Menu"):
        revision, layout = bus.call_sync(sender, properties["Menu"], "com.canonical.dbusmenu", "GetLayout",
                                         GLib.Variant("(iias)", (0, -1, [])), None, Gio.DBusCallFlags.NONE,
                                         5000, None).unpack()
        for child in layout[2]:
            child_id, props, _ = child
            menu.append({"id": child_id, "label": props.get("label", ""), "enabled": props.get("enabled", True),
                         "type": props.get("type", "standard")})
    record({"item": item, "menu": menu, "sender": sender})


def item_signal(connection, sender, path, interface, signal, parameters, data):
    read_item(sender, data)


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "RegisterStatusNotifierItem":
        service = parameters.unpack()[0]
        item_path = service if service.startswith("/") else "/StatusNotifierItem"
        items.append(service)
        invocation.return_value(None)
        record({"registered": service, "sender": sender})
        for signal in ["NewStatus", "NewToolTip", "NewIcon", "NewTitle"]:
            connection.signal_subscribe(sender, "org.kde.StatusNotifierItem", signal, item_path, None,
                                        Gio.DBusSignalFlags.NONE, item_signal, item_path)
        connection.signal_subscribe(sender, "com.canonical.dbusmenu", "LayoutUpdated", None, None,
                                    Gio.DBusSignalFlags.NONE, item_signal, item_path)
        connection.emit_signal(None, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher",
                               "StatusNotifierItemRegistered", GLib.Variant("(s)", (service,)))
        read_item(sender, item_path)
    else:
        invocation.return_value(None)


def get_property(connection, sender, path, interface, name):
    if name == "RegisteredStatusNotifierItems":
        return GLib.Variant("as", items)
    if name == "IsStatusNotifierHostRegistered":
        return GLib.Variant("b", True)
    return GLib.Variant("i", 0)


def acquired(connection, name):
    record({"ready": True})


def lost(connection, name):
    record({"lost": name})
    sys.exit(1)


def bus_acquired(connection, name):
    global bus
    bus = connection
    info = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
    connection.register_object("/StatusNotifierWatcher", info, call, get_property, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.kde.StatusNotifierWatcher", Gio.BusNameOwnerFlags.NONE,
                 bus_acquired, acquired, lost)
GLib.MainLoop().run()
