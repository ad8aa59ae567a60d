// SPDX-License-Identifier: MIT
// libFuzzer harness: one Chakra rank trace (protobuf, gzip or not), then its estimate as one rank.
#include "core/chakra.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    try {
        core::Workload workload;
        workload.programs.push_back(
            std::make_shared<const core::Program>(core::parseChakraTrace(fuzz::text(data, size), "fuzz.et")));
        workload.ranks.resize(1);
        for (std::size_t s = 0; s < workload.programs.front()->commSlots.size(); ++s)
            workload.ranks[0].slotGroups.push_back(workload.groupFor({0}));
        fuzz::estimateIfSmall(workload);
    } catch (const core::InputError&) {
    }
    return 0;
}
