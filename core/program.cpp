// SPDX-License-Identifier: MIT
#include "core/program.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_set>

namespace flint::core {

// A field added to Op must be compared in sameExceptTiming and hashed in contentHash too: this
// fails to compile as a reminder (x86-64 layout).
static_assert(sizeof(Op) == 240, "Op changed: update sameExceptTiming and contentHash");

bool sameExceptTiming(const Op& a, const Op& b)
{
    return a.id == b.id && a.kind == b.kind && a.collective == b.collective && a.isCpuOp == b.isCpuOp &&
           a.flops == b.flops && a.bytesRead == b.bytesRead && a.bytesWritten == b.bytesWritten &&
           a.commBytes == b.commBytes && a.commSlot == b.commSlot && a.commSrc == b.commSrc && a.commDst == b.commDst &&
           a.commTag == b.commTag && a.commPriority == b.commPriority && a.dtype == b.dtype &&
           a.chakraAttributes == b.chakraAttributes && a.dataDeps == b.dataDeps && a.ctrlDeps == b.ctrlDeps &&
           a.shape == b.shape && a.name == b.name && a.scope == b.scope && a.extras == b.extras;
}

ProgramMatch matchPrograms(const Program& a, const Program& b)
{
    if (a.schemaVersion != b.schemaVersion || a.metadataAttributes != b.metadataAttributes ||
        a.ops.size() != b.ops.size() || a.commSlots.size() != b.commSlots.size())
        return ProgramMatch::Different;
    ProgramMatch match = ProgramMatch::Same;
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
        const Op& x = a.ops[i];
        const Op& y = b.ops[i];
        if (!sameExceptTiming(x, y))
            return ProgramMatch::Different;
        if (x.startTimeMicros != y.startTimeMicros || x.durationMicros != y.durationMicros)
            match = ProgramMatch::SameExceptTiming;
    }
    return match;
}

std::size_t contentHash(const Program& program, bool timing)
{
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&h](std::uint64_t x) {
        h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 1099511628211ull;
    };
    mix(program.ops.size());
    mix(program.commSlots.size());
    for (const Op& op : program.ops) {
        mix(op.id);
        mix(static_cast<std::uint64_t>(op.kind) << 8 | static_cast<std::uint64_t>(op.collective));
        mix(op.flops);
        mix(op.bytesRead ^ op.bytesWritten << 1);
        mix(op.commBytes);
        mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(op.commSlot)) << 32 |
            static_cast<std::uint32_t>(op.commSrc));
        mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(op.commDst)) << 32 |
            static_cast<std::uint32_t>(op.commTag));
        mix(op.dataDeps.size() << 16 | op.ctrlDeps.size());
        mix(std::hash<std::string_view>{}(op.name));
        if (timing)
            mix(op.startTimeMicros * 0x100000001b3ull ^ op.durationMicros);
    }
    return static_cast<std::size_t>(h);
}

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

namespace {
constexpr std::string_view kAttentionForward = "attention_forward";
constexpr std::string_view kAttentionBackward = "attention_backward";
} // namespace

bool isHostGap(const Op& op)
{
    if (!op.extras.has())
        return false;
    for (const Attribute& a : op.extras.get().attributes)
        if (a.name == kMeasuredAttribute)
            return a.asString() == "host gap"; // displayName(MeasuredKind::HostGap)
    return false;
}

KernelClass kernelClassOf(const Op& op)
{
    if (!op.extras.has())
        return KernelClass::Generic;
    for (const Attribute& a : op.extras.get().attributes)
        if (a.name == kKernelClassAttribute) {
            const std::string value = a.asString();
            return value == kAttentionForward    ? KernelClass::AttentionForward
                   : value == kAttentionBackward ? KernelClass::AttentionBackward
                                                 : KernelClass::Generic;
        }
    return KernelClass::Generic;
}

bool runsOnCopyEngines(const Op& op)
{
    if (!op.extras.has())
        return false;
    for (const Attribute& a : op.extras.get().attributes)
        if (a.name == kCommEngineAttribute)
            return a.asString() == "copy_engine";
    return false;
}

void setRunsOnCopyEngines(Op& op)
{
    std::vector<Attribute>& attributes = op.extras.mutate().attributes;
    std::erase_if(attributes, [](const Attribute& a) { return a.name == kCommEngineAttribute; });
    attributes.push_back(Attribute::makeString(kCommEngineAttribute, "copy_engine"));
}

void setKernelClass(Op& op, KernelClass kernelClass)
{
    if (kernelClass == KernelClass::Generic && !op.extras.has())
        return;
    std::vector<Attribute>& attributes = op.extras.mutate().attributes;
    std::erase_if(attributes, [](const Attribute& a) { return a.name == kKernelClassAttribute; });
    if (kernelClass != KernelClass::Generic)
        attributes.push_back(Attribute::makeString(
            kKernelClassAttribute,
            std::string(kernelClass == KernelClass::AttentionForward ? kAttentionForward : kAttentionBackward)));
}

} // namespace flint::core
