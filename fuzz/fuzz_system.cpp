// SPDX-License-Identifier: MIT
// libFuzzer harness: an ASTRA-sim system JSON.
#include "core/estimator/systemconfig.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        (void)flint::core::parseSystemJson(flint::fuzz::text(data, size), "fuzz.json");
    } catch (const flint::core::InputError&) {
    }
    return 0;
}
