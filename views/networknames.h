// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimator/systemconfig.h"
#include "core/estimator/topology.h"

#include <QCoreApplication>
#include <QString>

namespace flint::views {

/// Topology kinds and collective algorithms as every view names them, in the user's language
/// ("switch", "double binary tree"). The network files keep ASTRA-sim's identifiers ("Switch",
/// "doubleBinaryTree"); the What-if panel shows those in its tooltips.
class NetworkNames {
    Q_DECLARE_TR_FUNCTIONS(NetworkNames)

public:
    static QString kind(core::TopologyKind kind);
    static QString algorithm(core::CollectiveAlgorithm algorithm);
};

} // namespace flint::views
