/* Loads libatspi on first use (sg_atspi.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_library.h"

/* The soname of Debian's libatspi2.0-0 (and every distribution's): ABI 0 since AT-SPI2 began. */
#define LIBRARY "libatspi.so.0"

struct sg_atspi_functions sg_atspi_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define ENTRY(name) { #name, (void **)&sg_atspi_functions.name }

static void load(void) {
    /* libatspi brings GLib, GObject and libdbus as its own dependencies: their functions are
     * found through its handle, and stay out of the global namespace. */
    const struct sg_symbol entries[] = {
        ENTRY(atspi_init), ENTRY(atspi_set_timeout), ENTRY(atspi_get_desktop),
        ENTRY(atspi_accessible_get_child_count), ENTRY(atspi_accessible_get_child_at_index),
        ENTRY(atspi_accessible_get_name), ENTRY(atspi_accessible_get_process_id), ENTRY(atspi_accessible_get_role),
        ENTRY(atspi_accessible_get_collection_iface), ENTRY(atspi_accessible_get_component_iface),
        ENTRY(atspi_accessible_get_text_iface), ENTRY(atspi_text_get_character_count), ENTRY(atspi_text_get_text),
        ENTRY(atspi_text_get_range_extents),
        ENTRY(atspi_collection_get_matches), ENTRY(atspi_component_get_extents), ENTRY(atspi_match_rule_new),
        ENTRY(atspi_state_set_new), ENTRY(atspi_state_set_add), ENTRY(atspi_event_listener_new),
        ENTRY(atspi_event_listener_register), ENTRY(atspi_event_get_type), ENTRY(g_boxed_free),
        ENTRY(g_object_unref), ENTRY(g_free), ENTRY(g_error_free), ENTRY(g_array_new), ENTRY(g_array_append_vals),
        ENTRY(g_array_unref), ENTRY(g_main_context_iteration), ENTRY(g_main_context_wakeup), ENTRY(g_timeout_add),
    };
    if (sg_library_load(LIBRARY, entries, sizeof entries / sizeof entries[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

void sg_atspi_wake(void) {
    pthread_once(&once, load);
    if (outcome == 0) sg_atspi_functions.g_main_context_wakeup(NULL);
}

int sg_atspi_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
