/* The resolved sd-bus functions (and the one data symbol), filled by load.c and used by calls.c
 * and vtable.c. Each slot has the type of the declaration in <systemd/sd-bus.h>, so the compiler
 * checks every call against the real prototype. */
#ifndef SG_SD_BUS_FUNCTIONS_H
#define SG_SD_BUS_FUNCTIONS_H

#include "sg_sd_bus.h"

/* Every symbol resolved from libsystemd: one list for the slots and for load.c's lookups. */
#define SG_SD_BUS_SYMBOLS(X)                                                                                   \
    X(sd_bus_new) X(sd_bus_open_user) X(sd_bus_set_address) X(sd_bus_set_bus_client) X(sd_bus_start)           \
    X(sd_bus_unref) X(sd_bus_flush_close_unref) X(sd_bus_get_fd) X(sd_bus_get_events) X(sd_bus_get_timeout)    \
    X(sd_bus_process) X(sd_bus_send) X(sd_bus_call) X(sd_bus_call_async)                                      \
    X(sd_bus_add_object_vtable) X(sd_bus_request_name) X(sd_bus_release_name_async)                            \
    X(sd_bus_match_signal_async) X(sd_bus_slot_unref) X(sd_bus_error_set) X(sd_bus_error_free)                 \
    X(sd_bus_message_new_method_call) X(sd_bus_message_new_method_return) X(sd_bus_message_new_signal)         \
    X(sd_bus_message_ref) X(sd_bus_message_unref) X(sd_bus_message_set_auto_start)                             \
    X(sd_bus_message_get_member) X(sd_bus_message_get_sender) X(sd_bus_message_is_method_error)                \
    X(sd_bus_message_append_basic) X(sd_bus_message_open_container) X(sd_bus_message_close_container)          \
    X(sd_bus_message_read_basic) X(sd_bus_message_enter_container) X(sd_bus_message_exit_container)            \
    X(sd_bus_message_at_end) X(sd_bus_message_peek_type) X(sd_bus_message_skip)                                \
    X(sd_bus_message_append_array) X(sd_bus_message_get_path)                                                  \
    X(sd_bus_object_vtable_format)

/* __typeof__ only names the declaration's type: it does not reference the symbol, so nothing
 * here makes the linker look for libsystemd. */
#define SG_SD_BUS_SLOT(name) __typeof__(name) *name;
struct sg_sd_bus_functions {
    SG_SD_BUS_SYMBOLS(SG_SD_BUS_SLOT)
};
#undef SG_SD_BUS_SLOT

/* Valid once sg_sd_bus_load returned 0. */
extern struct sg_sd_bus_functions sg_sd_bus_functions;

#endif
