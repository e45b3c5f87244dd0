/* The resolved libatspi and GLib functions, filled by load.c and called by calls.c. */
#ifndef SG_ATSPI_FUNCTIONS_H
#define SG_ATSPI_FUNCTIONS_H

#include "sg_atspi.h"

struct sg_atspi_functions {
    int (*atspi_init)(void);
    void (*atspi_set_timeout)(int, int);
    AtspiAccessible *(*atspi_get_desktop)(int);
    int (*atspi_accessible_get_child_count)(AtspiAccessible *, GError **);
    AtspiAccessible *(*atspi_accessible_get_child_at_index)(AtspiAccessible *, int, GError **);
    char *(*atspi_accessible_get_name)(AtspiAccessible *, GError **);
    unsigned int (*atspi_accessible_get_process_id)(AtspiAccessible *, GError **);
    AtspiRole (*atspi_accessible_get_role)(AtspiAccessible *, GError **);
    AtspiCollection *(*atspi_accessible_get_collection_iface)(AtspiAccessible *);
    AtspiComponent *(*atspi_accessible_get_component_iface)(AtspiAccessible *);
    AtspiText *(*atspi_accessible_get_text_iface)(AtspiAccessible *);
    int (*atspi_text_get_character_count)(AtspiText *, GError **);
    char *(*atspi_text_get_text)(AtspiText *, int, int, GError **);
    AtspiRect *(*atspi_text_get_range_extents)(AtspiText *, int, int, AtspiCoordType, GError **);
    GArray *(*atspi_collection_get_matches)(AtspiCollection *, AtspiMatchRule *, AtspiCollectionSortOrder, int, int,
                                            GError **);
    AtspiRect *(*atspi_component_get_extents)(AtspiComponent *, AtspiCoordType, GError **);
    AtspiMatchRule *(*atspi_match_rule_new)(AtspiStateSet *, AtspiCollectionMatchType, void *, AtspiCollectionMatchType,
                                            GArray *, AtspiCollectionMatchType, GArray *, AtspiCollectionMatchType, int);
    AtspiStateSet *(*atspi_state_set_new)(GArray *);
    void (*atspi_state_set_add)(AtspiStateSet *, AtspiStateType);
    AtspiEventListener *(*atspi_event_listener_new)(AtspiEventListenerCB, void *, SGDestroyNotify);
    int (*atspi_event_listener_register)(AtspiEventListener *, const char *, GError **);
    size_t (*atspi_event_get_type)(void); /* GType is a gsize */
    void (*g_boxed_free)(size_t, void *);
    void (*g_object_unref)(void *);
    void (*g_free)(void *);
    void (*g_error_free)(GError *);
    GArray *(*g_array_new)(int, int, unsigned int);
    GArray *(*g_array_append_vals)(GArray *, const void *, unsigned int);
    void (*g_array_unref)(GArray *);
    int (*g_main_context_iteration)(void *, int);
    void (*g_main_context_wakeup)(void *);
    unsigned int (*g_timeout_add)(unsigned int, SGSourceFunc, void *);
};

/* Valid once sg_atspi_load returned 0. */
extern struct sg_atspi_functions sg_atspi_functions;

#endif
