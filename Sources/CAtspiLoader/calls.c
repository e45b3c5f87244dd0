/* The prefixed entry points of sg_atspi.h: each calls the resolved function of its name. */
#include "functions.h"

#define F sg_atspi_functions

int sg_atspi_init(void) { return F.atspi_init(); }
void sg_atspi_set_timeout(int value, int startup_time) { F.atspi_set_timeout(value, startup_time); }
AtspiAccessible *sg_atspi_get_desktop(int index) { return F.atspi_get_desktop(index); }

int sg_atspi_accessible_get_child_count(AtspiAccessible *object, GError **error) {
    return F.atspi_accessible_get_child_count(object, error);
}
AtspiAccessible *sg_atspi_accessible_get_child_at_index(AtspiAccessible *object, int index, GError **error) {
    return F.atspi_accessible_get_child_at_index(object, index, error);
}
char *sg_atspi_accessible_get_name(AtspiAccessible *object, GError **error) {
    return F.atspi_accessible_get_name(object, error);
}
unsigned int sg_atspi_accessible_get_process_id(AtspiAccessible *object, GError **error) {
    return F.atspi_accessible_get_process_id(object, error);
}
AtspiRole sg_atspi_accessible_get_role(AtspiAccessible *object, GError **error) {
    return F.atspi_accessible_get_role(object, error);
}
AtspiCollection *sg_atspi_accessible_get_collection_iface(AtspiAccessible *object) {
    return F.atspi_accessible_get_collection_iface(object);
}
AtspiComponent *sg_atspi_accessible_get_component_iface(AtspiAccessible *object) {
    return F.atspi_accessible_get_component_iface(object);
}
AtspiText *sg_atspi_accessible_get_text_iface(AtspiAccessible *object) {
    return F.atspi_accessible_get_text_iface(object);
}
int sg_atspi_text_get_character_count(AtspiText *text, GError **error) {
    return F.atspi_text_get_character_count(text, error);
}
char *sg_atspi_text_get_text(AtspiText *text, int start, int end, GError **error) {
    return F.atspi_text_get_text(text, start, end, error);
}
AtspiRect *sg_atspi_text_get_range_extents(AtspiText *text, int start, int end, AtspiCoordType type, GError **error) {
    return F.atspi_text_get_range_extents(text, start, end, type, error);
}

GArray *sg_atspi_collection_get_matches(AtspiCollection *collection, AtspiMatchRule *rule,
                                        AtspiCollectionSortOrder sort, int count, int traverse, GError **error) {
    return F.atspi_collection_get_matches(collection, rule, sort, count, traverse, error);
}
AtspiRect *sg_atspi_component_get_extents(AtspiComponent *component, AtspiCoordType type, GError **error) {
    return F.atspi_component_get_extents(component, type, error);
}
AtspiMatchRule *sg_atspi_match_rule_new(AtspiStateSet *states, AtspiCollectionMatchType state_match,
                                        void *attributes, AtspiCollectionMatchType attribute_match,
                                        GArray *roles, AtspiCollectionMatchType role_match,
                                        GArray *interfaces, AtspiCollectionMatchType interface_match, int invert) {
    return F.atspi_match_rule_new(states, state_match, attributes, attribute_match, roles, role_match, interfaces,
                                  interface_match, invert);
}
AtspiStateSet *sg_atspi_state_set_new(GArray *states) { return F.atspi_state_set_new(states); }
void sg_atspi_state_set_add(AtspiStateSet *set, AtspiStateType state) { F.atspi_state_set_add(set, state); }

AtspiEventListener *sg_atspi_event_listener_new(AtspiEventListenerCB callback, void *user_data,
                                                SGDestroyNotify destroyed) {
    return F.atspi_event_listener_new(callback, user_data, destroyed);
}
int sg_atspi_event_listener_register(AtspiEventListener *listener, const char *event_type, GError **error) {
    return F.atspi_event_listener_register(listener, event_type, error);
}
void sg_atspi_event_free(AtspiEvent *event) { F.g_boxed_free(F.atspi_event_get_type(), event); }

void sg_g_object_unref(void *object) { F.g_object_unref(object); }
void sg_g_free(void *memory) { F.g_free(memory); }
void sg_g_error_free(GError *error) { F.g_error_free(error); }
GArray *sg_g_array_new(int zero_terminated, int clear, unsigned int element_size) {
    return F.g_array_new(zero_terminated, clear, element_size);
}
GArray *sg_g_array_append_vals(GArray *array, const void *data, unsigned int count) {
    return F.g_array_append_vals(array, data, count);
}
void sg_g_array_unref(GArray *array) { F.g_array_unref(array); }
int sg_g_main_context_iteration(void *context, int may_block) { return F.g_main_context_iteration(context, may_block); }
unsigned int sg_g_timeout_add(unsigned int interval, SGSourceFunc function, void *data) {
    return F.g_timeout_add(interval, function, data);
}
