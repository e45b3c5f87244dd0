/* libatspi (AT-SPI2 over D-Bus) for `field` rules: every call Swift makes is a plain function,
 * so this header only includes the library. GLib's g_array_index and g_object_unref's type
 * checks are macros: Swift reads GArray's data pointer and calls g_object_unref directly. */
#include <atspi/atspi.h>
