// libwebp's simple decode and encode API: its headers import as they are, no wrapper needed.
#include <webp/decode.h>
#include <webp/encode.h>
