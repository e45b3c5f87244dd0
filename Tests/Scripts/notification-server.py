#!/usr/bin/python3
# A notification server in small, for tests (python3-gi, Gio): owns org.freedesktop.Notifications
# on the session bus of DBUS_SESSION_BUS_ADDRESS, answers as the Desktop Notifications
# Specification 1.2 asks, and prints one JSON line per call it gets. Prints {"ready": true} once
# it owns the name.
#
#   --capabilities a,b,c   what GetCapabilities answers (default: body,body-markup,actions)
#   --invoke KEY           after each Notify that offers action KEY, emit ActionInvoked(id, KEY)
import argparse
import json
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""

parser = argparse.ArgumentParser()
parser.add_argument("--capabilities", default="body,body-markup,actions")
parser.add_argument("--invoke")
options = parser.parse_args()
capabilities = [c for c in options.capabilities.split(",") if c]
last_id = 0


def record(entry):
    print(json.dumps(entry), flush=True)


def call(connection, sender, path, interface, method, parameters, invocation):
    global last_id
    if method == "GetCapabilities":
        record({"method": method})
        invocation.return_value(GLib.Variant("(as)", (capabilities,)))
    elif method == "Notify":
        app, replaces, icon, summary, body, actions, hints, expire = parameters.unpack()
        # As the specification says: a known replaces_id keeps its id, otherwise a new one.
        if replaces == 0 or replaces > last_id:
            last_id += 1
            notification = last_id
        else:
            notification = replaces
        record({"method": method, "app": app, "replaces": replaces, "icon": icon, "summary": summary, "body": body,
                "actions": actions, "hints": sorted(hints.keys()), "expire": expire, "id": notification})
        invocation.return_value(GLib.Variant("(u)", (notification,)))
        if options.invoke and options.invoke in actions[0::2]:
            connection.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                   "ActionInvoked", GLib.Variant("(us)", (notification, options.invoke)))
    elif method == "CloseNotification":
        record({"method": method})
        invocation.return_value(None)
    else:
        record({"method": method})
        invocation.return_value(GLib.Variant("(ssss)", ("fake", "shotguard tests", "1", "1.2")))


def acquired(connection, name):
    record({"ready": True})


def lost(connection, name):
    record({"lost": name})
    sys.exit(1)


def bus_acquired(connection, name):
    info = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
    connection.register_object("/org/freedesktop/Notifications", info, call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE,
                 bus_acquired, acquired, lost)
GLib.MainLoop().run()
