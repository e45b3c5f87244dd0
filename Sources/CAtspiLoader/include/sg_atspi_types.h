/* The few libatspi and GLib types and constants shotguard's `field` rules use, copied from
 * <atspi/atspi.h> and <glib.h> so that building needs neither header and the binary does not
 * link libatspi: it is loaded at run time (sg_atspi.h). The values and layouts must match the
 * real headers; CLITests' AtspiLoaderTests compile against them and compare. */
#ifndef SG_ATSPI_TYPES_H
#define SG_ATSPI_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* GObjects, interfaces and boxed types Swift only passes back: opaque (OpaquePointer in Swift). */
typedef struct _AtspiAccessible AtspiAccessible;
typedef struct _AtspiCollection AtspiCollection;
typedef struct _AtspiComponent AtspiComponent;
typedef struct _AtspiMatchRule AtspiMatchRule;
typedef struct _AtspiStateSet AtspiStateSet;
typedef struct _AtspiEventListener AtspiEventListener;
typedef struct _AtspiEvent AtspiEvent;
typedef struct _AtspiText AtspiText;

/* GLib's public structs, field for field. */
typedef struct _GArray {
    char *data;
    unsigned int len;
} GArray;

typedef struct _GError {
    uint32_t domain; /* GQuark */
    int code;
    char *message;
} GError;

/* atspi-component.h */
typedef struct _AtspiRect {
    int x;
    int y;
    int width;
    int height;
} AtspiRect;

/* atspi-constants.h: only the members used; the values are the headers'. */
typedef enum {
    ATSPI_ROLE_LABEL = 29,
    ATSPI_ROLE_LIST_ITEM = 32,
    ATSPI_ROLE_PASSWORD_TEXT = 40,
    ATSPI_ROLE_TABLE_CELL = 56,
    ATSPI_ROLE_TERMINAL = 60,
    ATSPI_ROLE_TEXT = 61,
    ATSPI_ROLE_PARAGRAPH = 73,
    ATSPI_ROLE_ENTRY = 79,
    ATSPI_ROLE_CAPTION = 81,
    ATSPI_ROLE_HEADING = 83,
    ATSPI_ROLE_DOCUMENT_TEXT = 94,
    ATSPI_ROLE_STATIC = 116,
} AtspiRole;

typedef enum {
    ATSPI_STATE_SHOWING = 25,
} AtspiStateType;

typedef enum {
    ATSPI_Collection_MATCH_ALL = 1,
    ATSPI_Collection_MATCH_ANY = 2,
} AtspiCollectionMatchType;

typedef enum {
    ATSPI_Collection_SORT_ORDER_CANONICAL = 1,
} AtspiCollectionSortOrder;

typedef enum {
    ATSPI_COORD_TYPE_SCREEN = 0,
} AtspiCoordType;

/* Callbacks: GLib's gboolean is an int, gpointer a void pointer. */
typedef void (*AtspiEventListenerCB)(AtspiEvent *event, void *user_data);
typedef void (*SGDestroyNotify)(void *data);
typedef int (*SGSourceFunc)(void *user_data);

#endif
