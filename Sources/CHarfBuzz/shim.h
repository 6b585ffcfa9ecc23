// CHarfBuzz: HarfBuzz text shaping (ligatures from GSUB, kerning and mark positions from GPOS).
#pragma once
#include <hb.h>
