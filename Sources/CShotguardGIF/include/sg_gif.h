/* giflib reading from and writing to memory. giflib reports errors as return codes (no longjmp)
 * and takes its I/O as function pointers: these hold the buffers behind them, so the Swift
 * side calls giflib's own functions on the GifFileType they give. giflib is linked, not loaded
 * on first use: it is one small library with no dependencies of its own. */
#ifndef SG_GIF_H
#define SG_GIF_H

#include <stddef.h>
#include <gif_lib.h>

/* Opens `length` bytes at `bytes` (kept by the caller until sg_gif_close_read) for giflib's
 * DGif functions. NULL with giflib's error code in `*error`. */
GifFileType *sg_gif_open_read(const unsigned char *bytes, size_t length, int *error);

/* Closes a file opened by sg_gif_open_read (DGifCloseFile) and frees what it held. */
void sg_gif_close_read(GifFileType *gif);

/* A GIF being written into memory. */
typedef struct sg_gif_output sg_gif_output;

/* Opens an empty buffer for giflib's EGif functions; NULL with the error code in `*error`. */
GifFileType *sg_gif_open_write(sg_gif_output **output, int *error);

/* Ends the file (EGifCloseFile writes its trailer) and hands over its bytes: 0 with `*bytes`
 * (freed with sg_gif_free) and `*length`, or giflib's error code. `output` is freed either way. */
int sg_gif_close_write(GifFileType *gif, sg_gif_output *output, unsigned char **bytes, size_t *length);

void sg_gif_free(unsigned char *bytes);

#endif
