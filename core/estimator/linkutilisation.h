// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/cluster.h"
#include "core/estimator/estimate.h"
#include "core/workload.h"

#include <cstddef>
#include <vector>

namespace flint::core {

/// How busy each topology dimension's links are over an estimated step (the explorer's network
/// view, `flint estimate --json`'s "links"). A rank's link in dimension d carries what the rank
/// sends to ranks whose first differing coordinate is d, as EstimateResult::bytesPerDim counts it:
/// a collective's share is the bytes its algorithm's flows send from the rank on that dimension
/// (CollectiveModel::forEachFlow), a send's is its size; receives are counted by their sender.
/// Each op's bytes are spread evenly over its event, from start to end.
///
/// Utilisation is bytes sent over bandwidth x time. Transfers that overlap in time share their
/// links (Cluster::linkSharing), so it stays near 1 where links are busiest; a few percent above is
/// left by that correction's single pass, and without it (or under ASTRA-sim's conventions) it can
/// reach 2 or more (docs/estimator.md, "Link utilisation"). Ranks of one timeline class are taken to
/// send alike (they run one program with collectives of equal cost), so the class's representative
/// stands for all of them. The bytes are LinkTraffic's.
struct LinkUtilisation {
    struct Dimension {
        /// Per time bin: the bytes all ranks sent on the dimension over ranks x bandwidth x bin time.
        std::vector<double> mean;
        /// Per time bin: the same for the busiest rank in that bin.
        std::vector<double> busiest;
        double bytes = 0;   ///< sent over the step by all ranks
        double average = 0; ///< bytes over ranks x bandwidth x step time
        double peak = 0;    ///< the largest value of `busiest`
    };
    double stepTime = 0;
    double binSeconds = 0; ///< stepTime / bins
    std::vector<Dimension> dims;
};

/// The link utilisation of `result` (estimated for `workload` on `cluster`) in `bins` equal time
/// bins over the step. Empty dims when the result kept no events (EstimateOptions::recordEvents).
LinkUtilisation linkUtilisation(const Workload& workload, const Cluster& cluster, const EstimateResult& result,
                                std::size_t bins = 240);

} // namespace flint::core
