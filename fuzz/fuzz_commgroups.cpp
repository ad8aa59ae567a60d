// SPDX-License-Identifier: MIT
// libFuzzer harness: a Chakra comm-group JSON ({"1": [0, 1], ...}).
#include "core/chakra.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        (void)flint::core::parseCommGroups(flint::fuzz::text(data, size), "fuzz.json");
    } catch (const flint::core::InputError&) {
    }
    return 0;
}
