/* PNG encoding with libpng's classic API, with setjmp kept inside this function so that
 * libpng's longjmp on error never unwinds a Swift frame. */
#include "shotguard_png.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    sg_png_buffer *out;
    char *err;
    size_t err_size;
} sg_write_state;

static void sg_set_error(sg_write_state *state, const char *message) {
    if (state->err != NULL && state->err_size > 0 && state->err[0] == '\0') {
        strncpy(state->err, message, state->err_size - 1);
        state->err[state->err_size - 1] = '\0';
    }
}

static void sg_on_error(png_structp png, png_const_charp message) {
    sg_set_error((sg_write_state *)png_get_error_ptr(png), message);
    png_longjmp(png, 1);
}

static void sg_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void sg_on_write(png_structp png, png_bytep data, size_t length) {
    sg_write_state *state = (sg_write_state *)png_get_io_ptr(png);
    sg_png_buffer *out = state->out;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) {
            capacity *= 2;
        }
        unsigned char *grown = realloc(out->data, capacity);
        if (grown == NULL) {
            sg_set_error(state, "out of memory while encoding PNG");
            png_longjmp(png, 1);
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void sg_on_flush(png_structp png) {
    (void)png;
}

static int sg_filter_mask(int filter) {
    switch (filter) {
    case SG_PNG_FILTER_NONE: return PNG_FILTER_NONE;
    case SG_PNG_FILTER_SUB: return PNG_FILTER_SUB;
    case SG_PNG_FILTER_UP: return PNG_FILTER_UP;
    default: return PNG_ALL_FILTERS;
    }
}

int sg_png_encode_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, int has_alpha, int level, int filter,
                       sg_png_buffer *out, char *err, size_t err_size) {
    if (err != NULL && err_size > 0) {
        err[0] = '\0';
    }
    sg_write_state state = {out, err, err_size};
    out->data = NULL;
    out->size = 0;
    out->capacity = 0;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, sg_on_error, sg_on_warning);
    if (png == NULL) {
        sg_set_error(&state, "cannot create PNG writer");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        sg_set_error(&state, "cannot create PNG info");
        return -1;
    }
    /* Nothing that changes after this setjmp is read after a longjmp except through
     * state and out, which live outside this frame's registers. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        sg_png_buffer_free(out);
        sg_set_error(&state, "PNG encoding failed");
        return -1;
    }

    png_set_write_fn(png, &state, sg_on_write, sg_on_flush);
    png_set_compression_level(png, level);
    png_set_compression_buffer_size(png, 256 * 1024);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, sg_filter_mask(filter));
    png_set_IHDR(png, info, width, height, 8,
                 has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    png_set_bgr(png);
    if (!has_alpha) {
        /* Strips the fourth byte of each pixel on the way out: no conversion pass. */
        png_set_filler(png, 0, PNG_FILLER_AFTER);
    }
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, pixels + (size_t)y * bytes_per_row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

void sg_png_buffer_free(sg_png_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
