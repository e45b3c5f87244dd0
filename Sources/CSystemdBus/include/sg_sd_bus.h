/* sd-bus (libsystemd), loaded when the first session-bus connection is made: linking it made
 * every command load libsystemd, liblzma, libzstd, liblz4, libcap, libgcrypt and libgpg-error
 * and run their constructors at start-up, which only the agent and the status, pause, resume
 * and autostart commands need.
 *
 * <systemd/sd-bus.h> is included for its types and constants only. Each sg_ function calls the
 * sd-bus function of its name without the prefix; calling that one directly would need
 * libsystemd linked, and the build fails to link instead. Call sg_sd_bus_load first and only
 * when it returned 0: before that nothing is resolved. */
#ifndef SG_SD_BUS_H
#define SG_SD_BUS_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* Loads libsystemd.so.0 and resolves every function below, once per process (later calls
 * return the first outcome). 0 when loaded; -1 with a one-line reason in `error` otherwise.
 * Thread-safe. */
int sg_sd_bus_load(char *error, size_t size);

/* Connections (sd_bus_new, sd_bus_open_user and the rest in sd-bus.h). */
int sg_sd_bus_new(sd_bus **ret);
int sg_sd_bus_open_user(sd_bus **ret);
int sg_sd_bus_set_address(sd_bus *bus, const char *address);
int sg_sd_bus_set_bus_client(sd_bus *bus, int b);
int sg_sd_bus_start(sd_bus *bus);
sd_bus *sg_sd_bus_unref(sd_bus *bus);
sd_bus *sg_sd_bus_flush_close_unref(sd_bus *bus);
int sg_sd_bus_get_fd(sd_bus *bus);
int sg_sd_bus_get_events(sd_bus *bus);
int sg_sd_bus_get_timeout(sd_bus *bus, uint64_t *timeout_usec);
int sg_sd_bus_process(sd_bus *bus, sd_bus_message **r);

/* Calls, objects, names and matches. */
int sg_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie);
int sg_sd_bus_call(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply);
int sg_sd_bus_call_async(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback,
                         void *userdata, uint64_t usec);
int sg_sd_bus_add_object_vtable(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                                const sd_bus_vtable *vtable, void *userdata);
int sg_sd_bus_request_name(sd_bus *bus, const char *name, uint64_t flags);
int sg_sd_bus_release_name_async(sd_bus *bus, sd_bus_slot **ret_slot, const char *name,
                                 sd_bus_message_handler_t callback, void *userdata);
int sg_sd_bus_match_signal_async(sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path,
                                 const char *interface, const char *member, sd_bus_message_handler_t match_callback,
                                 sd_bus_message_handler_t add_callback, void *userdata);
sd_bus_slot *sg_sd_bus_slot_unref(sd_bus_slot *slot);
int sg_sd_bus_error_set(sd_bus_error *e, const char *name, const char *message);
void sg_sd_bus_error_free(sd_bus_error *e);

/* Messages. */
int sg_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                      const char *interface, const char *member);
int sg_sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m);
int sg_sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface,
                                 const char *member);
sd_bus_message *sg_sd_bus_message_ref(sd_bus_message *m);
sd_bus_message *sg_sd_bus_message_unref(sd_bus_message *m);
int sg_sd_bus_message_set_auto_start(sd_bus_message *m, int b);
const char *sg_sd_bus_message_get_member(sd_bus_message *m);
const char *sg_sd_bus_message_get_sender(sd_bus_message *m);
int sg_sd_bus_message_is_method_error(sd_bus_message *m, const char *name);
int sg_sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p);
int sg_sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents);
int sg_sd_bus_message_close_container(sd_bus_message *m);
int sg_sd_bus_message_read_basic(sd_bus_message *m, char type, void *p);
int sg_sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents);
int sg_sd_bus_message_exit_container(sd_bus_message *m);
int sg_sd_bus_message_at_end(sd_bus_message *m, int complete);
int sg_sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents);
int sg_sd_bus_message_skip(sd_bus_message *m, const char *types);
/* An array of fixed-size elements in one call (`ay` of an icon's pixels). */
int sg_sd_bus_message_append_array(sd_bus_message *m, char type, const void *ptr, size_t size);
const char *sg_sd_bus_message_get_path(sd_bus_message *m);

/* Vtable entries. SD_BUS_VTABLE_START, SD_BUS_METHOD and SD_BUS_SIGNAL are initializer macros,
 * which Swift cannot expand; these fill one entry each. The strings given must live as long as
 * the vtable is registered. */

/* The first entry (SD_BUS_VTABLE_START(0)), with parameter names enabled. It points at
 * libsystemd's own sd_bus_object_vtable_format, as the macro does: valid once loaded. */
sd_bus_vtable sg_bus_vtable_start(void);
/* A method (SD_BUS_METHOD_WITH_NAMES): `names` holds the input then the output parameter
 * names, each ended by a NUL byte, as SD_BUS_PARAM writes them. */
sd_bus_vtable sg_bus_vtable_method(const char *member, const char *signature, const char *result, const char *names,
                                   sd_bus_message_handler_t handler, uint64_t flags);
/* A signal (SD_BUS_SIGNAL_WITH_NAMES), its parameter names as for a method. */
sd_bus_vtable sg_bus_vtable_signal(const char *member, const char *signature, const char *names, uint64_t flags);
/* A read-only property (SD_BUS_PROPERTY with a getter and no offset); `flags` as the macro's
 * (SD_BUS_VTABLE_PROPERTY_CONST, ..._EMITS_CHANGE). */
sd_bus_vtable sg_bus_vtable_property(const char *member, const char *signature, sd_bus_property_get_t getter,
                                     uint64_t flags);
/* The last entry (SD_BUS_VTABLE_END). */
sd_bus_vtable sg_bus_vtable_end(void);

#endif
