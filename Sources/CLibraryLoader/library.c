/* sg_library_load: what every lazily loaded library of shotguard does to be loaded. */
#include <dlfcn.h>
#include <stdio.h>
#include "sg_library.h"

/* All or nothing: when a symbol is missing, every slot filled before it is emptied again and the
 * library closed, so that no caller can reach half a library through a slot left set. */
int sg_library_load(const char *library, const struct sg_symbol *symbols, size_t count, char *reason, size_t size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(reason, size, "cannot load %s (%s)", library, dlerror());
        return -1;
    }
    for (size_t index = 0; index < count; index++) {
        dlerror();
        *symbols[index].slot = dlsym(handle, symbols[index].name);
        if (*symbols[index].slot == NULL) {
            const char *error = dlerror();
            snprintf(reason, size, "cannot load %s (%s)", library, error != NULL ? error : symbols[index].name);
            for (size_t filled = 0; filled < index; filled++) {
                *symbols[filled].slot = NULL;
            }
            dlclose(handle);
            return -1;
        }
    }
    return 0;
}
