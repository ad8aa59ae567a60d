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

std::vector<std::vector<TimedStep>> idealPipeline(PipelineSchedule schedule, std::int64_t stages,
                                                  std::int64_t virtualStages, std::int64_t microbatches, double forward,
                                                  double backward)
{
    const std::int64_t chunks =
        schedule == PipelineSchedule::Interleaved ? std::max<std::int64_t>(1, virtualStages) : 1;
    const std::int64_t vstages = stages * chunks;
    std::vector<std::vector<PipelineStep>> orders;
    for (std::int64_t s = 0; s < stages; ++s)
        orders.push_back(pipelineOrder(schedule, stages, chunks, microbatches, s, true));
    // End times of each (virtual stage, microbatch) forward and backward; negative until run.
    const auto cell = [microbatches](std::int64_t v, std::int64_t mb) {
        return static_cast<std::size_t>(v * microbatches + mb);
    };
    std::vector<double> forwardEnd(static_cast<std::size_t>(vstages * microbatches), -1.0);
    std::vector<double> backwardEnd(forwardEnd.size(), -1.0);
    std::vector<std::vector<TimedStep>> out(static_cast<std::size_t>(stages));
    std::vector<std::size_t> next(static_cast<std::size_t>(stages), 0);
    std::vector<double> free(static_cast<std::size_t>(stages), 0.0);
    const double f = forward / static_cast<double>(chunks), b = backward / static_cast<double>(chunks);
    for (bool progressed = true; progressed;) {
        progressed = false;
        for (std::int64_t s = 0; s < stages; ++s) {
            const auto su = static_cast<std::size_t>(s);
            const auto& order = orders[su];
            while (next[su] < order.size()) {
                const PipelineStep& step = order[next[su]];
                const std::int64_t v = step.chunk * stages + s;
                double ready = 0;
                if (!step.backward && v > 0)
                    ready = forwardEnd[cell(v - 1, step.microbatch)];
                else if (step.backward)
                    ready = v + 1 < vstages ? backwardEnd[cell(v + 1, step.microbatch)]
                                            : forwardEnd[cell(v, step.microbatch)];
                if (ready < 0)
                    break; // waits for another stage
                const double start = std::max(free[su], ready);
                const double end = start + (step.backward ? b : f);
                (step.backward ? backwardEnd : forwardEnd)[cell(v, step.microbatch)] = end;
                out[su].push_back({step, start, end});
                free[su] = end;
                ++next[su];
                progressed = true;
            }
        }
    }
    return out;
}

} // namespace flint::core::model
