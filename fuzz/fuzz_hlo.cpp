// SPDX-License-Identifier: MIT
// libFuzzer harness: XLA HLO text, parsed, lowered to per-rank programs (loop unrolling capped
// lower than the command's default, to keep executions fast) and estimated when small.
#include "core/hlo/hloimport.h"
#include "core/hlo/hloparser.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    try {
        const core::hlo::Module module = core::hlo::parseHlo(fuzz::text(data, size), "fuzz.hlo");
        core::hlo::HloImportOptions options;
        options.maxOps = 100'000;
        const core::hlo::HloImport imported = core::hlo::importHloModule(module, options);
        fuzz::estimateIfSmall(imported.workload);
    } catch (const core::InputError&) {
    }
    return 0;
}
