// SPDX-License-Identifier: MIT
#include "views/networknames.h"

namespace flint::views {

QString NetworkNames::kind(core::TopologyKind kind)
{
    switch (kind) {
    case core::TopologyKind::Ring:
        return tr("ring");
    case core::TopologyKind::Switch:
        return tr("switch");
    case core::TopologyKind::FullyConnected:
        return tr("fully connected");
    }
    return {};
}

QString NetworkNames::algorithm(core::CollectiveAlgorithm algorithm)
{
    switch (algorithm) {
    case core::CollectiveAlgorithm::Ring:
        return tr("ring");
    case core::CollectiveAlgorithm::Direct:
        return tr("direct");
    case core::CollectiveAlgorithm::HalvingDoubling:
        return tr("halving-doubling");
    case core::CollectiveAlgorithm::DoubleBinaryTree:
        return tr("double binary tree");
    }
    return {};
}

} // namespace flint::views
