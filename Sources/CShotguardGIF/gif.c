/* The memory behind sg_gif.h's reading and writing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sg_gif.h"

struct sg_gif_input {
    const unsigned char *bytes;
    size_t length, position;
};

struct sg_gif_output {
    unsigned char *bytes;
    size_t length, capacity;
    int failed;
};

static int read_bytes(GifFileType *gif, GifByteType *buffer, int count) {
    struct sg_gif_input *input = gif->UserData;
    if (count <= 0) return 0;
    size_t available = input->length - input->position;
    size_t taken = (size_t)count < available ? (size_t)count : available;
    memcpy(buffer, input->bytes + input->position, taken);
    input->position += taken;
    return (int)taken;
}

GifFileType *sg_gif_open_read(const unsigned char *bytes, size_t length, int *error) {
    struct sg_gif_input *input = malloc(sizeof *input);
    if (input == NULL) {
        *error = D_GIF_ERR_NOT_ENOUGH_MEM;
        return NULL;
    }
    *input = (struct sg_gif_input){ bytes, length, 0 };
    GifFileType *gif = DGifOpen(input, read_bytes, error);
    if (gif == NULL) free(input);
    return gif;
}

void sg_gif_close_read(GifFileType *gif) {
    if (gif == NULL) return;
    void *input = gif->UserData;
    int error = 0;
    DGifCloseFile(gif, &error);
    free(input);
}

static int write_bytes(GifFileType *gif, const GifByteType *buffer, int count) {
    struct sg_gif_output *output = gif->UserData;
    if (count < 0 || output->failed) return 0;
    size_t end = output->length + (size_t)count;
    if (end > output->capacity) {
        size_t capacity = output->capacity < 65536 ? 65536 : output->capacity;
        while (capacity < end) {
            if (capacity > SIZE_MAX / 2) {
                output->failed = 1;
                return 0;
            }
            capacity *= 2;
        }
        unsigned char *grown = realloc(output->bytes, capacity);
        if (grown == NULL) {
            output->failed = 1;
            return 0;
        }
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->length, buffer, (size_t)count);
    output->length = end;
    return count;
}

GifFileType *sg_gif_open_write(sg_gif_output **output, int *error) {
    *output = calloc(1, sizeof **output);
    if (*output == NULL) {
        *error = E_GIF_ERR_NOT_ENOUGH_MEM;
        return NULL;
    }
    GifFileType *gif = EGifOpen(*output, write_bytes, error);
    if (gif == NULL) {
        free(*output);
        *output = NULL;
    }
    return gif;
}

int sg_gif_close_write(GifFileType *gif, sg_gif_output *output, unsigned char **bytes, size_t *length) {
    int error = 0;
    int closed = EGifCloseFile(gif, &error);
    if (closed != GIF_OK || output->failed) {
        free(output->bytes);
        free(output);
        return error != 0 ? error : E_GIF_ERR_WRITE_FAILED;
    }
    *bytes = output->bytes;
    *length = output->length;
    free(output);
    return 0;
}

void sg_gif_free(unsigned char *bytes) { free(bytes); }
