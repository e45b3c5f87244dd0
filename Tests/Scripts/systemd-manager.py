#!/usr/bin/python3
# A systemd user manager in small, for tests (python3-gi, Gio): owns org.freedesktop.systemd1 on
# the session bus of DBUS_SESSION_BUS_ADDRESS with the few members shotguard uses (the
# manager's Environment, LoadUnit, SetEnvironment, ResetFailedUnit, StartUnit; a unit's
# LoadState, ActiveState, UnitFileState, Result, ExecMainStatus), and prints one JSON line per
# call. Prints {"ready": true} once it owns the name.
#
#   --environment A=1,B=2   the manager's environment
#   --unit STATE            JSON of the unit's properties, e.g. '{"LoadState": "loaded", ...}'
import argparse
import json
import sys

from gi.repository import Gio, GLib

MANAGER = """
<node>
  <interface name="org.freedesktop.systemd1.Manager">
    <property name="Environment" type="as" access="read"/>
    <method name="LoadUnit"><arg type="s" direction="in"/><arg type="o" direction="out"/></method>
    <method name="SetEnvironment"><arg type="as" direction="in"/></method>
    <method name="ResetFailedUnit"><arg type="s" direction="in"/></method>
    <method name="StartUnit">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="o" direction="out"/>
    </method>
  </interface>
</node>
"""
UNIT = """
<node>
  <interface name="org.freedesktop.systemd1.Unit">
    <property name="LoadState" type="s" access="read"/>
    <property name="ActiveState" type="s" access="read"/>
    <property name="UnitFileState" type="s" access="read"/>
  </interface>
  <interface name="org.freedesktop.systemd1.Service">
    <property name="Result" type="s" access="read"/>
    <property name="ExecMainStatus" type="i" access="read"/>
  </interface>
</node>
"""
UNIT_PATH = "/org/freedesktop/systemd1/unit/shotguard_2eservice"

parser = argparse.ArgumentParser()
parser.add_argument("--environment", default="")
parser.add_argument("--unit", default="{}")
options = parser.parse_args()
environment = [e for e in options.environment.split(",") if e]
unit = {"LoadState": "not-found", "ActiveState": "inactive", "UnitFileState": "", "Result": "success",
        "ExecMainStatus": 0}
unit.update(json.loads(options.unit))


def record(entry):
    print(json.dumps(entry), flush=True)


def manager_call(connection, sender, path, interface, method, parameters, invocation):
    arguments = list(parameters.unpack())
    record({"method": method, "arguments": arguments})
    if method == "LoadUnit":
        invocation.return_value(GLib.Variant("(o)", (UNIT_PATH,)))
    elif method == "SetEnvironment":
        for entry in arguments[0]:
            name = entry.split("=", 1)[0]
            environment[:] = [e for e in environment if e.split("=", 1)[0] != name] + [entry]
        invocation.return_value(None)
    elif method == "ResetFailedUnit":
        if unit["ActiveState"] == "failed":
            unit["ActiveState"] = "inactive"
        invocation.return_value(None)
    elif method == "StartUnit":
        unit["ActiveState"] = "active"
        invocation.return_value(GLib.Variant("(o)", ("/org/freedesktop/systemd1/job/1",)))


def manager_property(connection, sender, path, interface, name):
    record({"get": name})
    return GLib.Variant("as", environment)


def unit_property(connection, sender, path, interface, name):
    record({"get": name})
    return GLib.Variant("i" if name == "ExecMainStatus" else "s", unit[name])


def bus_acquired(connection, name):
    manager = Gio.DBusNodeInfo.new_for_xml(MANAGER).interfaces[0]
    connection.register_object("/org/freedesktop/systemd1", manager, manager_call, manager_property, None)
    for info in Gio.DBusNodeInfo.new_for_xml(UNIT).interfaces:
        connection.register_object(UNIT_PATH, info, None, unit_property, None)


def acquired(connection, name):
    record({"ready": True})


def lost(connection, name):
    record({"lost": name})
    sys.exit(1)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.systemd1", Gio.BusNameOwnerFlags.NONE,
                 bus_acquired, acquired, lost)
GLib.MainLoop().run()
