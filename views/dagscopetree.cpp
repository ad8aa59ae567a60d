// SPDX-License-Identifier: MIT
#include "views/dagscopetree.h"

#include "views/timelinegeometry.h"
#include "views/viewpalette.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <unordered_map>

#include <QCoreApplication>
#include <QLocale>

namespace flint::views {

namespace {

constexpr std::uint32_t controlBit = 0x8000'0000u;

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    // 64-bit mixing step (the finaliser of splitmix64 applied to the running hash and the value).
    h ^= v + 0x9e37'79b9'7f4a'7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58'476d'1ce4'e5b9ull;
    h ^= h >> 27;
    return h;
}

std::uint64_t hashText(std::string_view text)
{
    return std::hash<std::string_view>{}(text);
}

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// An op kind a query names: "All-Reduce", "all_reduce" and "allreduce" agree.
std::string normalised(std::string_view text)
{
    return core::nameKey(text);
}

DagNodeKind nodeKindOf(core::OpKind kind)
{
    switch (kind) {
    case core::OpKind::Compute:
        return DagNodeKind::Compute;
    case core::OpKind::MemLoad:
    case core::OpKind::MemStore:
        return DagNodeKind::Memory;
    case core::OpKind::Collective:
        return DagNodeKind::Collective;
    case core::OpKind::Send:
    case core::OpKind::Recv:
        return DagNodeKind::SendRecv;
    case core::OpKind::Invalid:
    case core::OpKind::Metadata:
        break;
    }
    return DagNodeKind::Other;
}

/// "541 ops", in the interface's language (layouts run on a worker: translate() is thread-safe).
std::string opCountText(std::uint32_t count)
{
    const int n = static_cast<int>(count);
    return QCoreApplication::translate("DagScopeTree", "%Ln op(s)", nullptr, n).toStdString();
}

/// What a chunk of ops without a scope of its own holds, for its node under its name ("ops
/// 1-2000"): the arithmetic and the transfers of its ops ("3.1 TFLOP · 55 transfers"), so that an
/// unstructured program's overview shows where the work and the communication are. Short: the
/// node is as wide as its text, and wide nodes shrink the first picture below legible.
std::string chunkText(const DagScopeTree::Group& g)
{
    QString text;
    if (g.flops > 0)
        text = formatCount(static_cast<double>(g.flops), QStringLiteral("FLOP"));
    if (g.communication > 0) {
        const int transfers = static_cast<int>(g.communication);
        text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) +
                QCoreApplication::translate("DagScopeTree", "%Ln transfer(s)", nullptr, transfers);
    }
    if (text.isEmpty())
        return opCountText(g.opCount);
    return text.toStdString();
}

} // namespace

std::string_view DagScopeTree::withoutNumericSuffix(std::string_view name)
{
    std::size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1])))
        --end;
    if (end == name.size())
        return name;
    while (end > 0 && (name[end - 1] == '_' || name[end - 1] == '.' || name[end - 1] == '-'))
        --end;
    return name.substr(0, end);
}

std::int32_t DagScopeTree::addGroup(std::int32_t parent, const std::string& name)
{
    Group group;
    const Group& p = m_groups[static_cast<std::size_t>(parent)];
    group.path = p.path.empty() ? name : p.path + '/' + name;
    group.name = name;
    group.parent = parent;
    group.depth = p.depth + 1;
    const auto index = static_cast<std::int32_t>(m_groups.size());
    m_groups.push_back(std::move(group));
    m_groups[static_cast<std::size_t>(parent)].children.push_back(index);
    return index;
}

std::int32_t DagScopeTree::findGroup(std::string_view path) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].path == path)
            return static_cast<std::int32_t>(i);
    return -1;
}

std::shared_ptr<const DagScopeTree> DagScopeTree::build(const core::Program& program)
{
    std::shared_ptr<DagScopeTree> tree(new DagScopeTree());
    tree->m_program = &program;
    tree->m_groups.emplace_back();
    const std::size_t opCount = program.ops.size();
    tree->m_groupOfOp.resize(opCount, 0);

    std::unordered_map<std::string, std::int32_t> byPath;
    byPath.emplace(std::string(), 0);
    const std::string* lastScope = nullptr;
    std::int32_t lastGroup = 0;
    for (std::size_t i = 0; i < opCount; ++i) {
        const std::string& scope = program.ops[i].scope;
        std::int32_t group = 0;
        if (lastScope && *lastScope == scope) {
            group = lastGroup;
        } else if (auto it = byPath.find(scope); it != byPath.end()) {
            group = it->second;
        } else {
            // Create every missing prefix, outermost first.
            std::size_t start = 0;
            while (start <= scope.size()) {
                std::size_t slash = scope.find('/', start);
                if (slash == std::string::npos)
                    slash = scope.size();
                const std::string prefix = scope.substr(0, slash);
                auto found = byPath.find(prefix);
                if (found == byPath.end()) {
                    const std::int32_t added = tree->addGroup(group, scope.substr(start, slash - start));
                    found = byPath.emplace(prefix, added).first;
                }
                group = found->second;
                start = slash + 1;
            }
        }
        lastScope = &scope;
        lastGroup = group;
        tree->m_groupOfOp[i] = group;
        tree->m_groups[static_cast<std::size_t>(group)].directOps.push_back(static_cast<std::uint32_t>(i));
    }

    tree->splitLargeGroups();
    // Children were created after their parents, so one backward pass sums the subtrees.
    for (auto& g : tree->m_groups)
        g.firstOp = g.directOps.empty() ? static_cast<std::uint32_t>(opCount) : g.directOps.front();
    for (Group& g : tree->m_groups)
        for (std::uint32_t op : g.directOps) {
            const core::Op& o = program.ops[op];
            g.flops += o.flops;
            g.communication += o.isCommunication() ? 1 : 0;
        }
    for (std::size_t i = tree->m_groups.size(); i-- > 0;) {
        Group& g = tree->m_groups[i];
        g.opCount += static_cast<std::uint32_t>(g.directOps.size());
        if (g.parent >= 0) {
            tree->m_groups[static_cast<std::size_t>(g.parent)].flops += g.flops;
            tree->m_groups[static_cast<std::size_t>(g.parent)].communication += g.communication;
        }
        if (g.parent >= 0) {
            Group& p = tree->m_groups[static_cast<std::size_t>(g.parent)];
            p.opCount += g.opCount;
            p.firstOp = std::min(p.firstOp, g.firstOp);
        }
    }
    for (auto& g : tree->m_groups)
        std::sort(g.children.begin(), g.children.end(), [&](std::int32_t a, std::int32_t b) {
            return tree->m_groups[static_cast<std::size_t>(a)].firstOp <
                   tree->m_groups[static_cast<std::size_t>(b)].firstOp;
        });
    tree->computeSignatures();
    tree->findRuns();
    return tree;
}

void DagScopeTree::splitLargeGroups()
{
    const std::size_t original = m_groups.size();
    for (std::size_t gi = 0; gi < original; ++gi) {
        if (m_groups[gi].directOps.size() <= maxDirectOps)
            continue;
        std::vector<std::uint32_t> ops = std::move(m_groups[gi].directOps);
        m_groups[gi].directOps.clear();
        chunk(static_cast<std::int32_t>(gi), ops, 0);
    }
}

void DagScopeTree::chunk(std::int32_t parent, std::span<const std::uint32_t> ops, std::size_t offset)
{
    // At most about maxChunks chunks per level, each a round number of ops (200, 500, 1,000, 2,000,
    // 5,000, ...): an unstructured program of 23,000 ops (an HLO module without op-name metadata)
    // opens as 12 chunks of 2,000 in order, not as a hundred chunks whose edges cross everywhere.
    const std::size_t wanted = (ops.size() + maxChunks - 1) / maxChunks;
    std::size_t size = maxDirectOps / 2;
    for (std::size_t decade = 100; size < wanted; decade *= 10)
        for (std::size_t multiple : {2, 5, 10})
            if (size < wanted)
                size = std::max(size, multiple * decade);
    for (std::size_t start = 0; start < ops.size(); start += size) {
        const std::size_t end = std::min(ops.size(), start + size);
        const std::string name = "ops " + std::to_string(offset + start + 1) + "-" + std::to_string(offset + end);
        const std::int32_t added = addGroup(parent, name);
        m_groups[static_cast<std::size_t>(added)].chunk = true;
        const std::span<const std::uint32_t> part = ops.subspan(start, end - start);
        if (part.size() > maxDirectOps) {
            chunk(added, part, offset + start);
            continue;
        }
        Group& g = m_groups[static_cast<std::size_t>(added)];
        g.directOps.assign(part.begin(), part.end());
        for (std::uint32_t op : g.directOps)
            m_groupOfOp[op] = added;
    }
}

void DagScopeTree::computeSignatures()
{
    const core::Program& program = *m_program;
    const std::size_t opCount = program.ops.size();
    const auto index = program.indexById();

    // Dependencies as op indices (control ones flagged), in CSR form.
    std::vector<std::uint32_t> depStart(opCount + 1, 0);
    std::vector<std::uint32_t> deps;
    for (std::size_t i = 0; i < opCount; ++i) {
        const core::Op& op = program.ops[i];
        for (std::uint64_t id : op.dataDeps)
            if (auto it = index.find(id); it != index.end())
                deps.push_back(it->second);
        for (std::uint64_t id : op.ctrlDeps)
            if (auto it = index.find(id); it != index.end())
                deps.push_back(it->second | controlBit);
        depStart[i + 1] = static_cast<std::uint32_t>(deps.size());
    }

    // Each group's ops in program order (ops are visited in order, so every list comes out sorted).
    std::vector<std::vector<std::uint32_t>> subtreeOps(m_groups.size());
    std::vector<std::uint64_t> opHash(opCount);
    for (std::size_t i = 0; i < opCount; ++i) {
        const core::Op& op = program.ops[i];
        std::uint64_t h = mix(static_cast<std::uint64_t>(op.kind), static_cast<std::uint64_t>(op.collective));
        opHash[i] = mix(h, hashText(withoutNumericSuffix(op.name)));
        for (std::int32_t g = m_groupOfOp[i]; g > 0; g = m_groups[static_cast<std::size_t>(g)].parent)
            subtreeOps[static_cast<std::size_t>(g)].push_back(static_cast<std::uint32_t>(i));
    }

    for (std::size_t gi = 1; gi < m_groups.size(); ++gi) {
        const std::vector<std::uint32_t>& ops = subtreeOps[gi];
        std::uint64_t h = mix(ops.size(), m_groups[gi].children.size());
        for (std::size_t p = 0; p < ops.size(); ++p) {
            const std::uint32_t op = ops[p];
            h = mix(h, opHash[op]);
            // Where the op sits below this group, by names without their numbers.
            for (std::int32_t g = m_groupOfOp[op]; g > 0 && static_cast<std::size_t>(g) != gi;
                 g = m_groups[static_cast<std::size_t>(g)].parent)
                h = mix(h, hashText(withoutNumericSuffix(m_groups[static_cast<std::size_t>(g)].name)));
            // Internal edges, by relative position.
            for (std::uint32_t d = depStart[op]; d < depStart[op + 1]; ++d) {
                const std::uint32_t src = deps[d] & ~controlBit;
                const auto it = std::lower_bound(ops.begin(), ops.end(), src);
                if (it != ops.end() && *it == src)
                    h = mix(h, (static_cast<std::uint64_t>(p - static_cast<std::size_t>(it - ops.begin())) << 1) |
                                   ((deps[d] & controlBit) ? 1u : 0u));
            }
        }
        m_groups[gi].signature = h;
    }
    m_depStart = std::move(depStart);
    m_deps = std::move(deps);
}

void DagScopeTree::findRuns()
{
    for (Group& parent : m_groups) {
        const auto& children = parent.children;
        for (std::size_t i = 0; i < children.size();) {
            const Group& first = m_groups[static_cast<std::size_t>(children[i])];
            std::size_t j = i + 1;
            while (j < children.size()) {
                const Group& next = m_groups[static_cast<std::size_t>(children[j])];
                if (next.signature != first.signature || next.opCount != first.opCount ||
                    withoutNumericSuffix(next.name) != withoutNumericSuffix(first.name))
                    break;
                ++j;
            }
            if (j - i >= 2) {
                for (std::size_t k = i; k < j; ++k)
                    m_groups[static_cast<std::size_t>(children[k])].runFirst = children[i];
                m_groups[static_cast<std::size_t>(children[i])].runLength = static_cast<std::uint32_t>(j - i);
            }
            i = j;
        }
    }
}

bool DagScopeTree::isFolded(std::int32_t group, const DagCollapseState& state) const
{
    for (std::int32_t g = group; g > 0; g = m_groups[static_cast<std::size_t>(g)].parent) {
        const Group& grp = m_groups[static_cast<std::size_t>(g)];
        if (grp.runFirst >= 0 && !state.unfolded.contains(m_groups[static_cast<std::size_t>(grp.runFirst)].path))
            return true;
    }
    return false;
}

std::size_t DagScopeTree::visibleNodeCount(const DagCollapseState& state) const
{
    std::function<std::size_t(std::int32_t)> count = [&](std::int32_t gi) -> std::size_t {
        const Group& g = m_groups[static_cast<std::size_t>(gi)];
        std::size_t n = g.directOps.size();
        for (std::int32_t c : g.children) {
            const Group& child = m_groups[static_cast<std::size_t>(c)];
            const bool folded = child.runFirst >= 0 &&
                                !state.unfolded.contains(m_groups[static_cast<std::size_t>(child.runFirst)].path);
            if (folded)
                n += child.runFirst == c ? 1 : 0;
            else if (state.expanded.contains(child.path))
                n += count(c);
            else
                n += 1;
        }
        return n;
    };
    return count(0);
}

DagCollapseState DagScopeTree::initialState(std::size_t nodeBudget) const
{
    DagCollapseState state;
    std::size_t shown = visibleNodeCount(state);
    std::deque<std::int32_t> queue(m_groups[0].children.begin(), m_groups[0].children.end());
    while (!queue.empty()) {
        const std::int32_t gi = queue.front();
        queue.pop_front();
        const Group& g = m_groups[static_cast<std::size_t>(gi)];
        // Chunks of a large group stay closed: their ops have no structure of their own to show,
        // and opening them all is the hairball the chunks are there to avoid.
        if (isFolded(gi, state) || g.chunk)
            continue;
        std::size_t units = g.directOps.size();
        for (std::int32_t c : g.children) {
            const Group& child = m_groups[static_cast<std::size_t>(c)];
            units += child.runFirst < 0 || child.runFirst == c ? 1 : 0;
        }
        if (shown + units - 1 > nodeBudget)
            continue;
        state.expanded.insert(g.path);
        shown += units - 1;
        queue.insert(queue.end(), g.children.begin(), g.children.end());
    }
    return state;
}

bool DagScopeTree::reveal(std::uint32_t opIndex, DagCollapseState& state) const
{
    if (opIndex >= m_groupOfOp.size())
        return false;
    bool changed = false;
    for (std::int32_t g = m_groupOfOp[opIndex]; g > 0; g = m_groups[static_cast<std::size_t>(g)].parent) {
        const Group& grp = m_groups[static_cast<std::size_t>(g)];
        changed |= state.expanded.insert(grp.path).second;
        if (grp.runFirst >= 0)
            changed |= state.unfolded.insert(m_groups[static_cast<std::size_t>(grp.runFirst)].path).second;
    }
    return changed;
}

DagLayout DagScopeTree::buildGraph(const DagCollapseState& state) const
{
    const core::Program& program = *m_program;
    DagLayout graph;
    graph.opToNode.assign(program.ops.size(), DagNode::noOp);

    std::function<void(std::int32_t, std::uint32_t)> assignSubtree = [&](std::int32_t gi, std::uint32_t node) {
        const Group& g = m_groups[static_cast<std::size_t>(gi)];
        for (std::uint32_t op : g.directOps)
            graph.opToNode[op] = node;
        for (std::int32_t c : g.children)
            assignSubtree(c, node);
    };

    // Items of an expanded group in program order: its direct ops and its child groups interleaved.
    std::function<void(std::int32_t, std::int32_t)> emitGroup = [&](std::int32_t gi, std::int32_t cluster) {
        const Group& g = m_groups[static_cast<std::size_t>(gi)];
        std::size_t opPos = 0;
        std::size_t childPos = 0;
        while (opPos < g.directOps.size() || childPos < g.children.size()) {
            const bool takeOp = childPos == g.children.size() ||
                                (opPos < g.directOps.size() &&
                                 g.directOps[opPos] < m_groups[static_cast<std::size_t>(g.children[childPos])].firstOp);
            const auto nodeIndex = static_cast<std::uint32_t>(graph.nodes.size());
            if (takeOp) {
                const std::uint32_t opIndex = g.directOps[opPos++];
                const core::Op& op = program.ops[opIndex];
                DagNode node;
                node.kind = nodeKindOf(op.kind);
                node.collective = op.collective;
                node.label = op.name;
                node.detail = kindLabel(op).toStdString(); // in the user's language
                node.op = opIndex;
                node.cluster = cluster;
                graph.opToNode[opIndex] = nodeIndex;
                graph.nodes.push_back(std::move(node));
                continue;
            }
            const std::int32_t ci = g.children[childPos++];
            const Group& child = m_groups[static_cast<std::size_t>(ci)];
            const bool folded = child.runFirst >= 0 &&
                                !state.unfolded.contains(m_groups[static_cast<std::size_t>(child.runFirst)].path);
            if (folded) {
                if (child.runFirst != ci)
                    continue; // shown by the run's first group
                const Group& last = m_groups[static_cast<std::size_t>(g.children[childPos - 1 + child.runLength - 1])];
                DagNode node;
                node.kind = DagNodeKind::Repeated;
                node.label = child.name + " … " + last.name;
                node.detail = QCoreApplication::translate("DagScopeTree", "×%1 · %2 each")
                                  .arg(child.runLength)
                                  .arg(QString::fromStdString(opCountText(child.opCount)))
                                  .toStdString();
                node.group = ci;
                node.opCount = child.opCount;
                node.repeat = child.runLength;
                node.cluster = cluster;
                graph.nodes.push_back(std::move(node));
                for (std::uint32_t k = 0; k < child.runLength; ++k)
                    assignSubtree(g.children[childPos - 1 + k], nodeIndex);
            } else if (state.expanded.contains(child.path)) {
                DagCluster frame;
                frame.group = ci;
                frame.label = child.name + "  (" + opCountText(child.opCount) + ")";
                frame.depth = child.depth;
                frame.parent = cluster;
                const auto frameIndex = static_cast<std::int32_t>(graph.clusters.size());
                graph.clusters.push_back(std::move(frame));
                emitGroup(ci, frameIndex);
            } else {
                DagNode node;
                node.kind = DagNodeKind::Group;
                node.label = child.name;
                node.detail = child.chunk ? chunkText(child) : opCountText(child.opCount);
                node.group = ci;
                node.opCount = child.opCount;
                node.cluster = cluster;
                graph.nodes.push_back(std::move(node));
                assignSubtree(ci, nodeIndex);
            }
        }
    };
    emitGroup(0, -1);

    // Aggregate op dependencies into edges between shown nodes.
    std::unordered_map<std::uint64_t, std::uint32_t> edgeOf;
    for (std::size_t i = 0; i < program.ops.size(); ++i) {
        const std::uint32_t to = graph.opToNode[i];
        for (std::uint32_t d = m_depStart[i]; d < m_depStart[i + 1]; ++d) {
            const std::uint32_t from = graph.opToNode[m_deps[d] & ~controlBit];
            if (from == to)
                continue;
            const std::uint64_t key = (static_cast<std::uint64_t>(from) << 32) | to;
            auto [it, added] = edgeOf.emplace(key, static_cast<std::uint32_t>(graph.edges.size()));
            if (added) {
                DagEdge edge;
                edge.from = from;
                edge.to = to;
                graph.edges.push_back(std::move(edge));
            }
            DagEdge& edge = graph.edges[it->second];
            if (m_deps[d] & controlBit)
                ++edge.controlCount;
            else
                ++edge.dataCount;
        }
    }
    return graph;
}

std::vector<std::uint32_t> DagScopeTree::find(std::string_view query) const
{
    std::vector<std::uint32_t> matches;
    if (query.empty())
        return matches;
    const std::string lowerQuery = lowered(query);
    const std::string kindQuery = normalised(query);
    const core::Program& program = *m_program;
    for (std::size_t i = 0; i < program.ops.size(); ++i) {
        const core::Op& op = program.ops[i];
        bool match = normalised(core::displayName(op.kind)) == kindQuery ||
                     (op.kind == core::OpKind::Collective && normalised(core::displayName(op.collective)) == kindQuery);
        if (!match)
            match = lowered(op.name).find(lowerQuery) != std::string::npos;
        if (match)
            matches.push_back(static_cast<std::uint32_t>(i));
    }
    return matches;
}

} // namespace flint::views
