/* sd-bus (libsystemd) for Swift: the session-bus service, its client, and notifications.
 *
 * The header imports as it is, except its vtable entries: SD_BUS_VTABLE_START, SD_BUS_METHOD
 * and SD_BUS_SIGNAL are initializer macros, which Swift cannot expand, and the start entry
 * must point at libsystemd's own sd_bus_object_vtable_format. One inline function per kind of
 * entry fills it in C; the strings it is given must live as long as the vtable is registered.
 * Variadic calls (sd_bus_call_method, sd_bus_message_read) do not import either: Swift builds
 * messages with the *_basic and container calls instead. */
#ifndef SHOTGUARD_SYSTEMD_BUS_H
#define SHOTGUARD_SYSTEMD_BUS_H

#include <stdint.h>
#include <string.h>
#include <systemd/sd-bus.h>

/* The first entry (SD_BUS_VTABLE_START(0)), with parameter names enabled. */
static inline sd_bus_vtable sg_bus_vtable_start(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_START(0);
    return entry;
}

/* A method (SD_BUS_METHOD_WITH_NAMES): `names` holds the input then the output parameter
 * names, each ended by a NUL byte, as SD_BUS_PARAM writes them. */
static inline sd_bus_vtable sg_bus_vtable_method(const char *member, const char *signature, const char *result,
                                                 const char *names, sd_bus_message_handler_t handler,
                                                 uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_METHOD;
    entry.flags = flags;
    entry.x.method.member = member;
    entry.x.method.signature = signature;
    entry.x.method.result = result;
    entry.x.method.handler = handler;
    entry.x.method.offset = 0;
    entry.x.method.names = names;
    return entry;
}

/* A signal (SD_BUS_SIGNAL_WITH_NAMES), its parameter names as for a method. */
static inline sd_bus_vtable sg_bus_vtable_signal(const char *member, const char *signature, const char *names,
                                                 uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_SIGNAL;
    entry.flags = flags;
    entry.x.signal.member = member;
    entry.x.signal.signature = signature;
    entry.x.signal.names = names;
    return entry;
}

/* The last entry (SD_BUS_VTABLE_END). */
static inline sd_bus_vtable sg_bus_vtable_end(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_END;
    return entry;
}

#endif
