// SPDX-License-Identifier: MIT
// Compiled with flint_core's include root by the layering test: must fail, core cannot see views.
#include "views/timelinegeometry.h"
