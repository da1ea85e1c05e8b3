/* png.h: PNG images of RGB rasters, written without a compression library
 * (png.c). */
#ifndef MCP_CLI_PNG_H
#define MCP_CLI_PNG_H

#include <stdint.h>
#include <stdio.h>

/* The PNG of a width x height raster (each 1 to 2^31 - 1) to f: rgb holds
 * the rows from the top, 3 bytes a pixel (red, green, blue).  0, or -1 for
 * a size PNG cannot hold, memory not had or a failed write (f then holds
 * part of the image). */
int cli_png_write(FILE *f, uint32_t width, uint32_t height, const uint8_t *rgb);

#endif
