// SPDX-License-Identifier: MIT
// libFuzzer harness: an ASTRA-sim network YAML, then a collective costed on it.
#include "core/estimator/collectivemodel.h"
#include "core/estimator/topology.h"
#include "fuzz/fuzztarget.h"

#include <numeric>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    try {
        core::Topology topology = core::parseNetworkYaml(fuzz::text(data, size), "fuzz.yml");
        if (!topology.validate().empty() || topology.npuCount() > 4096)
            return 0;
        const core::Cluster cluster = core::astraSimCluster(std::move(topology), core::SystemConfig{});
        std::vector<std::int32_t> members(static_cast<std::size_t>(cluster.topology.npuCount()));
        std::iota(members.begin(), members.end(), 0);
        (void)core::CollectiveModel(cluster).collective(core::CollectiveKind::AllReduce, 1 << 20, members);
    } catch (const core::InputError&) {
    }
    return 0;
}
