// SPDX-License-Identifier: MIT
// libFuzzer harness: one Chakra rank trace (protobuf, gzip or not), then its estimate as one rank; and
// a differential check of the reader's byte-level node comparison against decoding.
#include "core/chakra.h"
#include "core/detail/chakrawire.h"
#include "core/program.h"
#include "fuzz/fuzztarget.h"

#include <cstdlib>

namespace {

/// The input's first byte splits the rest into two Node messages. When sameNodeExceptTimes calls them
/// equal but for their recorded times, decoding must agree: both fail, or both give ops equal but
/// for the times, the first with the times reported. Anything else is a finding (abort).
void checkNodeComparison(std::string_view input)
{
    using namespace flint::core;
    if (input.empty())
        return;
    const std::size_t split = 1 + (input.size() - 1) * static_cast<unsigned char>(input[0]) / 256;
    const std::string_view a = input.substr(1, split - 1);
    const std::string_view b = input.substr(split);
    std::uint64_t start = 0, duration = 0;
    try {
        if (!detail::sameNodeExceptTimes(a, b, start, duration))
            return;
    } catch (const detail::WireError&) {
        return;
    }
    Op x, y;
    std::string pgX, pgY;
    bool hasX = false, hasY = false;
    int failures = 0;
    try {
        detail::decodeNode(a, x, pgX, hasX);
    } catch (const detail::WireError&) {
        ++failures;
    }
    try {
        detail::decodeNode(b, y, pgY, hasY);
    } catch (const detail::WireError&) {
        ++failures;
    }
    if (failures == 1)
        std::abort();
    if (failures == 0 && (!sameExceptTiming(x, y) || pgX != pgY || hasX != hasY || x.startTimeMicros != start ||
                          x.durationMicros != duration))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    checkNodeComparison(fuzz::text(data, size));
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
