/* The prefixed entry points of sg_sd_bus.h: each calls the resolved function of its name. */
#include "functions.h"

#define F sg_sd_bus_functions

int sg_sd_bus_new(sd_bus **ret) { return F.sd_bus_new(ret); }
int sg_sd_bus_open_user(sd_bus **ret) { return F.sd_bus_open_user(ret); }
int sg_sd_bus_set_address(sd_bus *bus, const char *address) { return F.sd_bus_set_address(bus, address); }
int sg_sd_bus_set_bus_client(sd_bus *bus, int b) { return F.sd_bus_set_bus_client(bus, b); }
int sg_sd_bus_start(sd_bus *bus) { return F.sd_bus_start(bus); }
sd_bus *sg_sd_bus_unref(sd_bus *bus) { return F.sd_bus_unref(bus); }
sd_bus *sg_sd_bus_flush_close_unref(sd_bus *bus) { return F.sd_bus_flush_close_unref(bus); }
int sg_sd_bus_get_fd(sd_bus *bus) { return F.sd_bus_get_fd(bus); }
int sg_sd_bus_get_events(sd_bus *bus) { return F.sd_bus_get_events(bus); }
int sg_sd_bus_get_timeout(sd_bus *bus, uint64_t *timeout_usec) { return F.sd_bus_get_timeout(bus, timeout_usec); }
int sg_sd_bus_process(sd_bus *bus, sd_bus_message **r) { return F.sd_bus_process(bus, r); }

int sg_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie) { return F.sd_bus_send(bus, m, cookie); }
int sg_sd_bus_call(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply) {
    return F.sd_bus_call(bus, m, usec, ret_error, reply);
}
int sg_sd_bus_call_async(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback,
                         void *userdata, uint64_t usec) {
    return F.sd_bus_call_async(bus, slot, m, callback, userdata, usec);
}
int sg_sd_bus_add_object_vtable(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                                const sd_bus_vtable *vtable, void *userdata) {
    return F.sd_bus_add_object_vtable(bus, slot, path, interface, vtable, userdata);
}
int sg_sd_bus_request_name(sd_bus *bus, const char *name, uint64_t flags) {
    return F.sd_bus_request_name(bus, name, flags);
}
int sg_sd_bus_release_name_async(sd_bus *bus, sd_bus_slot **ret_slot, const char *name,
                                 sd_bus_message_handler_t callback, void *userdata) {
    return F.sd_bus_release_name_async(bus, ret_slot, name, callback, userdata);
}
int sg_sd_bus_match_signal_async(sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path,
                                 const char *interface, const char *member, sd_bus_message_handler_t match_callback,
                                 sd_bus_message_handler_t add_callback, void *userdata) {
    return F.sd_bus_match_signal_async(bus, ret, sender, path, interface, member, match_callback, add_callback,
                                       userdata);
}
sd_bus_slot *sg_sd_bus_slot_unref(sd_bus_slot *slot) { return F.sd_bus_slot_unref(slot); }
int sg_sd_bus_error_set(sd_bus_error *e, const char *name, const char *message) {
    return F.sd_bus_error_set(e, name, message);
}
void sg_sd_bus_error_free(sd_bus_error *e) { F.sd_bus_error_free(e); }

int sg_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                      const char *interface, const char *member) {
    return F.sd_bus_message_new_method_call(bus, m, destination, path, interface, member);
}
int sg_sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m) {
    return F.sd_bus_message_new_method_return(call, m);
}
int sg_sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface,
                                 const char *member) {
    return F.sd_bus_message_new_signal(bus, m, path, interface, member);
}
sd_bus_message *sg_sd_bus_message_ref(sd_bus_message *m) { return F.sd_bus_message_ref(m); }
sd_bus_message *sg_sd_bus_message_unref(sd_bus_message *m) { return F.sd_bus_message_unref(m); }
int sg_sd_bus_message_set_auto_start(sd_bus_message *m, int b) { return F.sd_bus_message_set_auto_start(m, b); }
const char *sg_sd_bus_message_get_member(sd_bus_message *m) { return F.sd_bus_message_get_member(m); }
const char *sg_sd_bus_message_get_sender(sd_bus_message *m) { return F.sd_bus_message_get_sender(m); }
int sg_sd_bus_message_is_method_error(sd_bus_message *m, const char *name) {
    return F.sd_bus_message_is_method_error(m, name);
}
int sg_sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p) {
    return F.sd_bus_message_append_basic(m, type, p);
}
int sg_sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents) {
    return F.sd_bus_message_open_container(m, type, contents);
}
int sg_sd_bus_message_close_container(sd_bus_message *m) { return F.sd_bus_message_close_container(m); }
int sg_sd_bus_message_read_basic(sd_bus_message *m, char type, void *p) { return F.sd_bus_message_read_basic(m, type, p); }
int sg_sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents) {
    return F.sd_bus_message_enter_container(m, type, contents);
}
int sg_sd_bus_message_exit_container(sd_bus_message *m) { return F.sd_bus_message_exit_container(m); }
int sg_sd_bus_message_at_end(sd_bus_message *m, int complete) { return F.sd_bus_message_at_end(m, complete); }
int sg_sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents) {
    return F.sd_bus_message_peek_type(m, type, contents);
}
int sg_sd_bus_message_skip(sd_bus_message *m, const char *types) { return F.sd_bus_message_skip(m, types); }
int sg_sd_bus_message_append_array(sd_bus_message *m, char type, const void *ptr, size_t size) {
    return F.sd_bus_message_append_array(m, type, ptr, size);
}
const char *sg_sd_bus_message_get_path(sd_bus_message *m) { return F.sd_bus_message_get_path(m); }
