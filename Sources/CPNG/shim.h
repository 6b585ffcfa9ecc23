// CPNG: libpng's simplified API (png_image) and zlib, for reading and writing PNG files.
#pragma once
#include <png.h>
#include <zlib.h>
