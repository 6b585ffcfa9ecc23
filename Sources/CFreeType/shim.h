// CFreeType: FreeType (glyph outlines, metrics, grayscale rendering) and fontconfig (finding fonts by family name).
#pragma once
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <fontconfig/fontconfig.h>

// FreeType error codes are plain ints; FT_Err_Ok is an enum member Swift can't always see.
static inline int cft_ok(FT_Error e) { return e == 0; }

// FT_LOAD_TARGET_LIGHT is a function-like macro, which Swift does not import: light hinting
// (vertical only) keeps advance widths as designed and stems crisp on the pixel grid.
static inline FT_Int32 cft_load_flags_light(void) { return FT_LOAD_TARGET_LIGHT | FT_LOAD_NO_BITMAP; }
