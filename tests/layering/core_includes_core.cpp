// SPDX-License-Identifier: MIT
// Compiled with flint_core's include root by the layering test: must compile (the control case).
#include "core/types.h"
