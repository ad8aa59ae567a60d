// SPDX-License-Identifier: MIT
// libFuzzer harness: one rank's PyTorch profiler trace (JSON, gzip or not), its step as a workload,
// then that workload estimated and replayed when small.
#include "core/fileio.h"
#include "core/measured/measuredworkload.h"
#include "core/measured/profile.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint::core;
    try {
        std::string inflated;
        std::string_view text = flint::fuzz::text(data, size);
        if (isGzip(text)) {
            inflated = gunzip(text, "fuzz.json.gz");
            text = inflated;
        }
        std::vector<measured::RankProfile> profiles;
        profiles.push_back(measured::parseProfile(text, "fuzz.json"));
        const measured::MeasuredWorkload run = measured::measuredWorkload(std::move(profiles));
        if (!run.workload.validate().empty())
            std::abort(); // a reader must never build an inconsistent workload
        flint::fuzz::estimateIfSmall(run.workload);
    } catch (const InputError&) {
    }
    return 0;
}
