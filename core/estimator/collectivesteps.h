// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/collectivemodel.h"
#include "core/estimator/topology.h"

#include <cstdint>
#include <span>
#include <vector>

namespace flint::core {

/// One message of a collective step: `bytes` from rank `src` to rank `dst` (global ranks).
struct CollectiveTransfer {
    std::int32_t src = 0;
    std::int32_t dst = 0;
    double bytes = 0;
};

/// What a step's receivers do with what arrives.
enum class StepAction : std::uint8_t {
    Reduce,   ///< add it to their own piece (reduce-scatter steps, trees going up)
    Copy,     ///< keep it (all-gather steps, trees going down)
    Exchange, ///< keep the piece meant for them (all-to-all)
};

/// One step of one chunk of a collective, as its algorithms run it: every instance of the phase (the
/// members that share every topology coordinate but the phase's dimension) sends at once.
struct CollectiveStep {
    std::size_t phase = 0; ///< index into CollectiveCost::phases
    std::int32_t step = 1; ///< 1-based within the phase
    StepAction action = StepAction::Copy;
    /// Halving-doubling: how many positions apart a member's partner is (1, 2, 4, ...); 1 otherwise.
    std::int32_t distance = 1;
    std::vector<CollectiveTransfer> transfers;
    double seconds = 0; ///< the step's share of its phase's time (by bytes; uniform where they are)
};

/// The steps of one chunk of `cost` (as CollectiveModel::collective priced it for `members`, global
/// ranks in ascending order), phase by phase, for teaching views: rings pass a piece to the next
/// member, halving-doubling exchanges with partners 1, 2, 4, ... apart, direct rounds send to every
/// peer at once, double binary trees reduce up two complementary trees and broadcast back down.
/// Empty for collectives without staged phases (rooted ones, permutes, barriers). A ring all-to-all
/// takes n(n-1)/2 steps: steps stop once they hold `maxTransfers` messages, and `truncated` (when
/// given) says whether they did.
std::vector<CollectiveStep> collectiveSteps(const CollectiveCost& cost, const Topology& topology,
                                            std::span<const std::int32_t> members,
                                            std::size_t maxTransfers = std::size_t{1} << 21, bool* truncated = nullptr);

} // namespace flint::core
