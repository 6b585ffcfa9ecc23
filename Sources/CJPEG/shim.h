// CJPEG: libjpeg(-turbo)'s decompressor, with its longjmp error handling kept on the C side.
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} live_jpeg_error;

static void live_jpeg_error_exit(j_common_ptr info) {
    live_jpeg_error *error = (live_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

/* Warnings (corrupt data libjpeg can go on with) are not printed: a library does not write to stderr. */
static void live_jpeg_output_message(j_common_ptr info) { (void)info; }

/* Decodes `size` bytes of JPEG into a malloc'd buffer of 4-byte pixels in B, G, R, A byte order
   (opaque), `*width` x `*height`, rows packed. Images over `max_side` a side or `max_pixels` in all
   are refused before any pixel is decoded. Returns NULL with `message` set on failure. */
static inline unsigned char *live_jpeg_decode(const unsigned char *data, unsigned long size, int max_side, long max_pixels,
                                              int *width, int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    live_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = live_jpeg_error_exit;
    error.manager.output_message = live_jpeg_output_message;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    if ((int)info.image_width > max_side || (int)info.image_height > max_side || info.image_width == 0 || info.image_height == 0 ||
        (long)info.image_width * (long)info.image_height > max_pixels) {
        snprintf(message, message_size, "image of %ux%u is too large (at most %d a side, %ld pixels)",
                 info.image_width, info.image_height, max_side, max_pixels);
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    info.out_color_space = JCS_EXT_BGRA;
    jpeg_start_decompress(&info);
    size_t row_bytes = (size_t)info.output_width * 4;
    pixels = malloc(row_bytes * info.output_height);
    if (!pixels) {
        snprintf(message, message_size, "out of memory for %ux%u pixels", info.output_width, info.output_height);
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + row_bytes * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_destroy_decompress(&info);
    return pixels;
}
