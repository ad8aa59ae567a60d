// SPDX-License-Identifier: MIT
#include "core/program.h"

#include <algorithm>
#include <unordered_set>

namespace flint::core {

std::int32_t Program::commSlotFor(std::string_view slotName)
{
    auto it = std::find(commSlots.begin(), commSlots.end(), slotName);
    if (it != commSlots.end())
        return static_cast<std::int32_t>(it - commSlots.begin());
    commSlots.emplace_back(slotName);
    return static_cast<std::int32_t>(commSlots.size() - 1);
}

std::unordered_map<std::uint64_t, std::uint32_t> Program::indexById() const
{
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(ops.size());
    for (std::uint32_t i = 0; i < ops.size(); ++i)
        index.emplace(ops[i].id, i);
    return index;
}

std::optional<std::uint64_t> Program::duplicateId() const
{
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(ops.size());
    for (const Op& op : ops)
        if (!seen.insert(op.id).second)
            return op.id;
    return std::nullopt;
}

Program::DependencyChain Program::longestDependencyChain() const
{
    // Kahn's algorithm over the edges that resolve inside the program; chain[i] is the number of ops
    // on the longest chain that ends at op i.
    const auto index = indexById();
    const std::size_t n = ops.size();
    std::vector<std::uint32_t> indegree(n, 0);
    std::vector<std::vector<std::uint32_t>> successors(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        for (const auto* deps : {&ops[i].dataDeps, &ops[i].ctrlDeps}) {
            for (std::uint64_t dep : *deps) {
                auto it = index.find(dep);
                if (it == index.end() || it->second == i)
                    continue;
                successors[it->second].push_back(i);
                ++indegree[i];
            }
        }
    }
    std::vector<std::uint32_t> ready;
    std::vector<std::uint64_t> chain(n, 1);
    for (std::uint32_t i = 0; i < n; ++i)
        if (indegree[i] == 0)
            ready.push_back(i);
    std::size_t visited = 0;
    std::uint64_t longest = 0;
    while (!ready.empty()) {
        const std::uint32_t node = ready.back();
        ready.pop_back();
        ++visited;
        longest = std::max(longest, chain[node]);
        for (std::uint32_t next : successors[node]) {
            chain[next] = std::max(chain[next], chain[node] + 1);
            if (--indegree[next] == 0)
                ready.push_back(next);
        }
    }
    return {longest, static_cast<std::uint64_t>(n - visited)};
}

} // namespace flint::core
