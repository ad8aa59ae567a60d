// SPDX-License-Identifier: MIT
#include "core/synthetictrace.h"

#include <array>
#include <string_view>

namespace flint::core {

Program makeSyntheticProgram(std::uint64_t opCount)
{
    struct Step {
        std::string_view name;
        OpKind kind;
        std::uint64_t flops;
        std::uint64_t bytes;
    };
    // One layer of a 4096-wide transformer on 2,048 tokens, tensor-parallel by 8 (sizes are
    // illustrative, not a calibrated model).
    constexpr std::array<Step, 10> kLayer{{
        {"attn/layernorm", OpKind::Compute, 41'943'040, 33'554'432},
        {"attn/qkv_matmul", OpKind::Compute, 25'769'803'776, 29'360'128},
        {"attn/softmax", OpKind::Compute, 167'772'160, 67'108'864},
        {"attn/context_matmul", OpKind::Compute, 8'589'934'592, 33'554'432},
        {"attn/out_matmul", OpKind::Compute, 8'589'934'592, 20'971'520},
        {"attn/all_reduce", OpKind::Collective, 0, 16'777'216},
        {"mlp/up_matmul", OpKind::Compute, 34'359'738'368, 41'943'040},
        {"mlp/gelu", OpKind::Compute, 83'886'080, 33'554'432},
        {"mlp/down_matmul", OpKind::Compute, 34'359'738'368, 41'943'040},
        {"mlp/all_reduce", OpKind::Collective, 0, 16'777'216},
    }};
    Program program;
    program.name = "synthetic_" + std::to_string(opCount);
    const std::int32_t tp = program.commSlotFor("tp");
    program.ops.resize(opCount);
    for (std::uint64_t i = 0; i < opCount; ++i) {
        const Step& step = kLayer[i % kLayer.size()];
        const std::uint64_t layer = i / kLayer.size();
        Op& op = program.ops[i];
        op.id = i;
        op.name = "layer_" + std::to_string(layer) + "/" + std::string(step.name);
        op.scope = "train_step/layer_" + std::to_string(layer);
        op.kind = step.kind;
        op.dtype = DType::BF16;
        if (step.kind == OpKind::Collective) {
            op.collective = CollectiveKind::AllReduce;
            op.commBytes = step.bytes;
            op.commSlot = tp;
        } else {
            op.flops = step.flops;
            op.bytesRead = step.bytes / 4 * 3;
            op.bytesWritten = step.bytes / 4;
        }
        if (i > 0)
            op.dataDeps.push_back(i - 1);
        if (i % kLayer.size() == 0 && i >= kLayer.size())
            op.dataDeps.push_back(i - kLayer.size()); // residual from the previous layer's input
        if (i % kLayer.size() == 6 && i >= 6)
            op.ctrlDeps.push_back(i - 6);
    }
    return program;
}

Workload makeSyntheticSpmdWorkload(std::uint64_t opCount, std::int32_t ranks, std::int32_t tp,
                                   std::uint64_t gradientBytes)
{
    Program program = makeSyntheticProgram(opCount - 1);
    Op gradient;
    gradient.id = opCount - 1;
    gradient.name = "grad_all_reduce";
    gradient.kind = OpKind::Collective;
    gradient.collective = CollectiveKind::AllReduce;
    gradient.commBytes = gradientBytes;
    gradient.commSlot = program.commSlotFor("dp");
    gradient.dataDeps = {opCount - 2};
    program.ops.push_back(gradient);
    auto shared = std::make_shared<const Program>(std::move(program));
    // Slot 0: tensor-parallel groups of `tp` consecutive ranks; slot 1: the data-parallel groups
    // of ranks equal modulo tp.
    std::vector<SlotBinding> slots(2);
    for (std::int32_t r = 0; r < ranks; ++r) {
        if (r % tp == 0)
            slots[0].groups.emplace_back();
        slots[0].groups.back().push_back(r);
        slots[0].groupOf.push_back(r / tp);
        if (r < tp)
            slots[1].groups.emplace_back();
        slots[1].groups[static_cast<std::size_t>(r % tp)].push_back(r);
        slots[1].groupOf.push_back(r % tp);
    }
    return Workload::spmdFromSlots(shared, static_cast<std::size_t>(ranks), slots);
}

void giveEveryRankItsOwnTimes(Workload& workload)
{
    for (std::size_t r = 0; r < workload.rankCount(); ++r) {
        const Program& program = workload.programOf(r);
        auto times = std::make_shared<RecordedTimes>();
        times->startMicros.assign(program.ops.size(), 0);
        times->durationMicros.resize(program.ops.size());
        for (std::size_t i = 0; i < program.ops.size(); ++i)
            times->durationMicros[i] = program.ops[i].kind == OpKind::Compute ? 20 + (r + i) % 17 : 0;
        workload.ranks[r].times = std::move(times);
    }
}

} // namespace flint::core
