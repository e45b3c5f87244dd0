/* libatspi, loaded only when a `field` rule needs it: linking it would make every command load
 * libatspi, GLib, GObject, libdbus and their dependencies and run their constructors at start-up.
 *
 * Each sg_ function calls the libatspi or GLib function of the same name without the prefix.
 * The prefix is deliberate: an executable defining g_object_unref itself would interpose on
 * GLib's own for every library loaded later. Call sg_atspi_load first and only when it returned
 * 0; before that the functions are not resolved. */
#ifndef SG_ATSPI_H
#define SG_ATSPI_H

#include "sg_atspi_types.h"

/* Loads libatspi.so.0 and resolves every function below, once per process (later calls return
 * the first outcome). 0 when loaded; -1 with a one-line reason in `error` otherwise. Thread-safe. */
int sg_atspi_load(char *error, size_t size);

/* atspi-misc.h, atspi-registry.h */
int sg_atspi_init(void);
void sg_atspi_set_timeout(int value, int startup_time);
AtspiAccessible *sg_atspi_get_desktop(int index);

/* atspi-accessible.h */
int sg_atspi_accessible_get_child_count(AtspiAccessible *object, GError **error);
AtspiAccessible *sg_atspi_accessible_get_child_at_index(AtspiAccessible *object, int index, GError **error);
char *sg_atspi_accessible_get_name(AtspiAccessible *object, GError **error);
unsigned int sg_atspi_accessible_get_process_id(AtspiAccessible *object, GError **error);
AtspiRole sg_atspi_accessible_get_role(AtspiAccessible *object, GError **error);
AtspiCollection *sg_atspi_accessible_get_collection_iface(AtspiAccessible *object);
AtspiComponent *sg_atspi_accessible_get_component_iface(AtspiAccessible *object);
AtspiText *sg_atspi_accessible_get_text_iface(AtspiAccessible *object);

/* atspi-text.h, for `text` rules: an object's text and where its characters are. Offsets count
 * characters (Unicode code points), not bytes. */
int sg_atspi_text_get_character_count(AtspiText *text, GError **error);
char *sg_atspi_text_get_text(AtspiText *text, int start, int end, GError **error);
AtspiRect *sg_atspi_text_get_range_extents(AtspiText *text, int start, int end, AtspiCoordType type, GError **error);

/* atspi-collection.h, atspi-component.h, atspi-matchrule.h, atspi-stateset.h */
GArray *sg_atspi_collection_get_matches(AtspiCollection *collection, AtspiMatchRule *rule,
                                        AtspiCollectionSortOrder sort, int count, int traverse, GError **error);
AtspiRect *sg_atspi_component_get_extents(AtspiComponent *component, AtspiCoordType type, GError **error);
AtspiMatchRule *sg_atspi_match_rule_new(AtspiStateSet *states, AtspiCollectionMatchType state_match,
                                        void *attributes, AtspiCollectionMatchType attribute_match,
                                        GArray *roles, AtspiCollectionMatchType role_match,
                                        GArray *interfaces, AtspiCollectionMatchType interface_match, int invert);
AtspiStateSet *sg_atspi_state_set_new(GArray *states);
void sg_atspi_state_set_add(AtspiStateSet *set, AtspiStateType state);

/* atspi-event-listener.h */
AtspiEventListener *sg_atspi_event_listener_new(AtspiEventListenerCB callback, void *user_data,
                                                SGDestroyNotify destroyed);
int sg_atspi_event_listener_register(AtspiEventListener *listener, const char *event_type, GError **error);
/* Frees an event a listener was given: g_boxed_free(atspi_event_get_type(), event). */
void sg_atspi_event_free(AtspiEvent *event);

/* GLib and GObject, from libatspi's own dependencies. */
void sg_g_object_unref(void *object);
void sg_g_free(void *memory);
void sg_g_error_free(GError *error);
GArray *sg_g_array_new(int zero_terminated, int clear, unsigned int element_size);
GArray *sg_g_array_append_vals(GArray *array, const void *data, unsigned int count);
void sg_g_array_unref(GArray *array);
int sg_g_main_context_iteration(void *context, int may_block);
/* g_main_context_wakeup(NULL): ends a blocking iteration of the default context from another
 * thread. Does nothing before sg_atspi_load succeeded. */
void sg_atspi_wake(void);
unsigned int sg_g_timeout_add(unsigned int interval, SGSourceFunc function, void *data);

#endif
