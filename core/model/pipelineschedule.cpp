// SPDX-License-Identifier: MIT
#include "core/model/pipelineschedule.h"

#include <algorithm>

namespace flint::core::model {
namespace {

/// The k-th forward (or backward) of an interleaved schedule: microbatches go in groups of
/// `stages`, each group through every chunk in turn (backwards through the chunks in reverse).
PipelineStep interleavedStep(std::int64_t k, std::int64_t stages, std::int64_t chunks, bool backward)
{
    PipelineStep step;
    step.backward = backward;
    const std::int64_t chunk = (k / stages) % chunks;
    step.chunk = backward ? chunks - 1 - chunk : chunk;
    step.microbatch = (k / (stages * chunks)) * stages + k % stages;
    return step;
}

} // namespace

std::vector<PipelineStep> pipelineOrder(PipelineSchedule schedule, std::int64_t stages, std::int64_t virtualStages,
                                        std::int64_t microbatches, std::int64_t stage, bool training)
{
    std::vector<PipelineStep> order;
    const std::int64_t chunks =
        schedule == PipelineSchedule::Interleaved ? std::max<std::int64_t>(1, virtualStages) : 1;
    const std::int64_t total = microbatches * chunks;
    const auto forward = [&](std::int64_t k) {
        return chunks > 1 ? interleavedStep(k, stages, chunks, false) : PipelineStep{false, k, 0};
    };
    const auto backward = [&](std::int64_t k) {
        return chunks > 1 ? interleavedStep(k, stages, chunks, true) : PipelineStep{true, k, 0};
    };
    if (!training || schedule == PipelineSchedule::GPipe) {
        for (std::int64_t k = 0; k < total; ++k)
            order.push_back(forward(k));
        if (training)
            for (std::int64_t k = 0; k < total; ++k)
                order.push_back(backward(k));
        return order;
    }
    const std::int64_t warmup =
        std::min(total, chunks > 1 ? (stages - stage - 1) * 2 + (chunks - 1) * stages : stages - stage - 1);
    std::int64_t f = 0;
    std::int64_t b = 0;
    for (; f < warmup; ++f)
        order.push_back(forward(f));
    while (f < total) {
        order.push_back(forward(f++));
        order.push_back(backward(b++));
    }
    while (b < total)
        order.push_back(backward(b++));
    return order;
}

std::int64_t peakChunksInFlight(const std::vector<PipelineStep>& order)
{
    std::int64_t live = 0;
    std::int64_t peak = 0;
    for (const PipelineStep& step : order) {
        live += step.backward ? -1 : 1;
        peak = std::max(peak, live);
    }
    return peak;
}

} // namespace flint::core::model
