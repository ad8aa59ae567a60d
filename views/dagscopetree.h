// SPDX-License-Identifier: MIT
#pragma once

#include "core/program.h"
#include "views/dagcollapsestate.h"
#include "views/daglayout.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flint::views {

/// The scope hierarchy of one Program, built once and shared: a group per scope prefix (op-name path,
/// while-loop iteration, fusion), the structural signature of every group, and the runs of identical
/// sibling groups that the view folds into one "×N" node. Turns a DagCollapseState into the graph to
/// lay out (nodes, aggregated edges, clusters).
///
/// Pure: no Qt widgets, no Graphviz. Immutable after build(), so safe to read from many threads. It
/// refers to the Program it was built from, which must outlive it.
class DagScopeTree {
public:
    /// A scope group. Group 0 is the root (path ""), always expanded.
    struct Group {
        std::string path;                     ///< full '/'-separated path, the key in DagCollapseState
        std::string name;                     ///< last path element
        std::int32_t parent = -1;             ///< -1 for the root
        std::uint32_t depth = 0;              ///< 0 for the root
        std::vector<std::int32_t> children;   ///< child groups, in program order of their first op
        std::vector<std::uint32_t> directOps; ///< ops whose scope is exactly this group, program order
        std::uint32_t firstOp = 0;            ///< smallest op index in the subtree
        std::uint32_t opCount = 0;            ///< ops in the subtree
        std::uint64_t signature = 0;          ///< structural hash of the subtree's contents
        std::int32_t runFirst = -1;           ///< first group of the repeated run holding this one, or -1
        std::uint32_t runLength = 1;          ///< groups in that run (on the run's first group only)
        bool chunk = false;      ///< a synthetic group of a large group's direct ops ("ops 1-2000"), not a scope
        std::uint64_t flops = 0; ///< of the ops in the subtree
        std::uint32_t communication = 0; ///< collectives, sends and receives in the subtree
    };

    /// Direct ops beyond this many in one group are split into synthetic chunk groups, so that no
    /// single expansion floods the layout.
    static constexpr std::size_t maxDirectOps = 400;
    /// About how many chunks one level of a split shows (chunks nest when there are more ops).
    static constexpr std::size_t maxChunks = 12;

    /// Builds the tree of `program`, which must outlive the result. Linear in ops (and their deps)
    /// times scope depth.
    static std::shared_ptr<const DagScopeTree> build(const core::Program& program);

    const core::Program& program() const { return *m_program; }
    const std::vector<Group>& groups() const { return m_groups; }
    /// The innermost group of each op.
    const std::vector<std::int32_t>& groupOfOp() const { return m_groupOfOp; }
    /// Index of the group with `path`, or -1.
    std::int32_t findGroup(std::string_view path) const;

    /// Nodes the view shows for `state` (without building the graph). Linear in groups.
    std::size_t visibleNodeCount(const DagCollapseState& state) const;
    /// The state a program opens in: groups expanded breadth-first while at most `nodeBudget` nodes show.
    DagCollapseState initialState(std::size_t nodeBudget) const;
    /// Changes `state` so that op `opIndex` shows as its own node: expands its ancestors and unfolds the
    /// runs they sit in. Returns false when nothing needed to change.
    bool reveal(std::uint32_t opIndex, DagCollapseState& state) const;
    /// Whether `group` shows inside a folded run (not as itself) under `state`.
    bool isFolded(std::int32_t group, const DagCollapseState& state) const;

    /// The graph for `state`, without geometry: nodes, edges aggregated between shown nodes (with data
    /// and control counts), and a cluster per expanded group. Linear in ops and dependencies.
    DagLayout buildGraph(const DagCollapseState& state) const;

    /// Ops whose name contains `query`, or whose kind or collective kind is named by it
    /// (case-insensitive; "all-reduce", "allreduce", "collective", "send", ...), in program order.
    std::vector<std::uint32_t> find(std::string_view query) const;

    /// `name` without a trailing number and its separator ("layer_12" -> "layer", "fusion.3" -> "fusion").
    static std::string_view withoutNumericSuffix(std::string_view name);

private:
    DagScopeTree() = default;
    std::int32_t addGroup(std::int32_t parent, const std::string& name);
    void splitLargeGroups();
    /// Splits `ops` (numbered from `offset` in their group) into chunk groups under `parent`, nested
    /// where one level would hold more than maxChunks.
    void chunk(std::int32_t parent, std::span<const std::uint32_t> ops, std::size_t offset);
    void computeSignatures();
    void findRuns();

    const core::Program* m_program = nullptr;
    std::vector<Group> m_groups;
    std::vector<std::int32_t> m_groupOfOp;
    /// Dependencies as op indices in CSR form: ops m_depStart[i]..m_depStart[i+1] of m_deps feed op i;
    /// the top bit marks a control dependency. Dangling ids are left out.
    std::vector<std::uint32_t> m_depStart;
    std::vector<std::uint32_t> m_deps;
};

} // namespace flint::views
