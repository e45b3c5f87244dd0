/* PCRE2 with 8-bit code units, for title~ patterns: match and depth limits bound the time a
 * pattern may take on a title. pcre2.h names its functions through token-pasting macros,
 * which do not import: Swift calls the _8 functions (pcre2_compile_8, ...) directly. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
