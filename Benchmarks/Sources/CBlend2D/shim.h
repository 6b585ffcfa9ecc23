#pragma once
// Blend2D, the peer renderer: headers and static library from PyPI's blend2d-python 1.0.0,
// unpacked into Benchmarks/.peers/ by peers/install-blend2d.sh (nothing of it is committed).
#define BL_STATIC
#include <blend2d.h>
