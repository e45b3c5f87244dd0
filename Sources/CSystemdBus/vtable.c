/* One sd-bus vtable entry per call, for Swift, which cannot expand the SD_BUS_* initializer macros. */
#include <string.h>
#include "functions.h"

sd_bus_vtable sg_bus_vtable_start(void) {
    /* SD_BUS_VTABLE_START(0), except that its &sd_bus_object_vtable_format would link
     * libsystemd: the address comes from the loaded library instead. sd-bus reads the entry's
     * features (parameter names) only when this reference is set. */
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_START;
    entry.flags = 0;
    entry.x.start.element_size = sizeof(sd_bus_vtable);
    entry.x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    entry.x.start.vtable_format_reference = sg_sd_bus_functions.sd_bus_object_vtable_format;
    return entry;
}

sd_bus_vtable sg_bus_vtable_method(const char *member, const char *signature, const char *result, const char *names,
                                   sd_bus_message_handler_t handler, uint64_t flags) {
    /* Zeroed first: the union's unused bytes must be 0 (sd-bus-vtable.h), which an initializer does not promise. */
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

sd_bus_vtable sg_bus_vtable_signal(const char *member, const char *signature, const char *names, uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_SIGNAL;
    entry.flags = flags;
    entry.x.signal.member = member;
    entry.x.signal.signature = signature;
    entry.x.signal.names = names;
    return entry;
}

sd_bus_vtable sg_bus_vtable_property(const char *member, const char *signature, sd_bus_property_get_t getter,
                                     uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_PROPERTY;
    entry.flags = flags;
    entry.x.property.member = member;
    entry.x.property.signature = signature;
    entry.x.property.get = getter;
    entry.x.property.set = NULL;
    entry.x.property.offset = 0;
    return entry;
}

sd_bus_vtable sg_bus_vtable_end(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_END;
    return entry;
}
