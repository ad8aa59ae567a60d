// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <QPainterPath>
#include <QRectF>

namespace flint::views {

/// What a node of the DAG view stands for; decides its look (see DagStyle).
enum class DagNodeKind : std::uint8_t {
    Compute,    ///< a compute kernel
    Memory,     ///< a memory load or store
    Collective, ///< a collective (DagNode::collective says which)
    SendRecv,   ///< a point-to-point send or receive
    Other,      ///< metadata or invalid ops
    Group,      ///< a collapsed scope group
    Repeated,   ///< a run of structurally identical sibling groups shown once ("×N")
};

/// One node of the shown graph: an op, a collapsed group or a folded run. Geometry in points (1/72
/// inch, Graphviz's unit), y down, filled by DagLayoutEngine.
struct DagNode {
    static constexpr std::uint32_t noOp = std::numeric_limits<std::uint32_t>::max();

    DagNodeKind kind = DagNodeKind::Compute;
    core::CollectiveKind collective = core::CollectiveKind::AllReduce;
    /// First line of text (op name or group name).
    std::string label;
    /// Second line of text (kind, op count); may be empty.
    std::string detail;
    /// Index into Program::ops for op nodes, else noOp.
    std::uint32_t op = noOp;
    /// Index into DagScopeTree::groups() for Group and Repeated nodes (the run's first group), else -1.
    std::int32_t group = -1;
    /// Ops inside (one instance of a Repeated run); 1 for an op.
    std::uint32_t opCount = 1;
    /// Number of groups a Repeated node stands for; 1 otherwise.
    std::uint32_t repeat = 1;
    /// Index into DagLayout::clusters of the innermost expanded group holding the node, or -1.
    std::int32_t cluster = -1;
    /// Bounding box in scene coordinates.
    QRectF rect;
};

/// An edge of the shown graph, aggregating every op dependency between the ops of its two nodes.
struct DagEdge {
    std::uint32_t from = 0; ///< index into DagLayout::nodes (the producer)
    std::uint32_t to = 0;   ///< index into DagLayout::nodes (the consumer)
    std::uint32_t dataCount = 0;
    std::uint32_t controlCount = 0;
    /// Route in scene coordinates (Graphviz's spline, ending at the head's border).
    QPainterPath path;
    /// Arrow head: the tip and the point the arrow comes from.
    QPointF arrowTip;
    QPointF arrowBase;

    /// An edge that only carries control dependencies; drawn dashed.
    bool isControl() const { return dataCount == 0; }
    std::uint32_t count() const { return dataCount + controlCount; }
};

/// An expanded scope group drawn as a frame around its members.
struct DagCluster {
    std::int32_t group = -1; ///< index into DagScopeTree::groups()
    std::string label;
    std::uint32_t depth = 0;  ///< 1 for a child of the root
    std::int32_t parent = -1; ///< index into DagLayout::clusters of the enclosing cluster, or -1
    QRectF rect;
};

/// The graph the DAG view shows for one collapse state, and after DagLayoutEngine::layout() its
/// geometry. Immutable once published (shared as std::shared_ptr<const DagLayout>).
struct DagLayout {
    std::vector<DagNode> nodes;
    std::vector<DagEdge> edges;
    std::vector<DagCluster> clusters;
    /// For each op of the program, the node that shows it (the op, or the group or run holding it).
    std::vector<std::uint32_t> opToNode;
    /// Bounding box of everything, in scene coordinates.
    QRectF bounds;
    /// True once geometry is filled in.
    bool laidOut = false;
    /// Wall time of the Graphviz layout, in seconds.
    double layoutSeconds = 0;
};

} // namespace flint::views
