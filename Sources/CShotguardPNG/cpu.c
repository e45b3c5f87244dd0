/* The CPU check behind the SSSE3 pixel conversions (filter.c, decode.c): every x86-64 CPU of
 * the last fifteen years has SSSE3, but the baseline does not promise it. Workers ask from
 * several threads, so the answer is kept with atomic loads and stores. */
#include "cpu.h"

int sg_has_ssse3(void) {
#if defined(__x86_64__)
    static int known = -1;
    int supported = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (supported < 0) {
        __builtin_cpu_init();
        supported = __builtin_cpu_supports("ssse3") ? 1 : 0;
        __atomic_store_n(&known, supported, __ATOMIC_RELAXED);
    }
    return supported;
#else
    return 0;
#endif
}
