// SPDX-License-Identifier: MIT
// Compiled with flint_views' include root by the layering test: must fail, views adapt results and
// do not run the engine.
#include "engine/scenario.h"
