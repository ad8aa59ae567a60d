// SPDX-License-Identifier: MIT
#include "engine/modelcompiler.h"

#include "core/error.h"
#include "core/mlir/mlirimport.h"
#include "core/model/pipelineschedule.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace flint::core::model {

/// One block lowered for the stage mesh: its program (one for every device of the stage) after
/// kernel fusion, and for each comm slot how it binds the stage's devices (stage-local ids). Kept
/// as distinct groups plus an index per device, so that a data-parallel group of 100,000 devices
/// costs 100,000 entries, not 10^10.
struct ModelCompiler::LoweredBlock {
    Program program;
    std::vector<SlotBinding> slotPatterns;
    std::int64_t devices = 1;
    std::vector<Message> warnings;
};

namespace {

/// The fused-kernel key of a scope: up to and including its first component that ends in ".fused"
/// ("attention/core.fused/x" -> "attention/core.fused"); empty when there is none.
std::string_view fusedKey(std::string_view scope)
{
    const std::size_t at = scope.find(".fused");
    if (at == std::string_view::npos)
        return {};
    const std::size_t end = at + 6;
    if (end != scope.size() && scope[end] != '/')
        return {};
    return scope.substr(0, end);
}

/// Kernel fusion: each maximal run of consecutive compute ops under one ".fused" scope becomes one
/// op, as the generator's fused kernels (norms, activations, flash attention, Adam) run on a GPU.
/// FLOPs add up; memory traffic is what crosses the kernel's boundary: an op's reads minus the
/// tensors produced inside the kernel, and the results that ops outside it (or nobody) consume.
Program fuseKernels(const Program& in)
{
    const std::size_t n = in.ops.size();
    std::vector<std::int64_t> group(n, -1);
    std::vector<std::pair<std::size_t, std::size_t>> runs; // [begin, end)
    for (std::size_t i = 0; i < n;) {
        const std::string_view key = in.ops[i].kind == OpKind::Compute ? fusedKey(in.ops[i].scope) : std::string_view{};
        std::size_t j = i + 1;
        if (!key.empty())
            while (j < n && in.ops[j].kind == OpKind::Compute && fusedKey(in.ops[j].scope) == key)
                ++j;
        if (!key.empty() && j - i > 1) {
            for (std::size_t k = i; k < j; ++k)
                group[k] = static_cast<std::int64_t>(runs.size());
            runs.emplace_back(i, j);
        }
        i = j;
    }
    if (runs.empty())
        return in;
    const auto index = in.indexById();
    // Consumers outside the run, per op.
    std::vector<char> usedOutside(n, 0), used(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (const auto* deps : {&in.ops[i].dataDeps, &in.ops[i].ctrlDeps})
            for (std::uint64_t id : *deps) {
                const auto it = index.find(id);
                if (it == index.end())
                    continue;
                used[it->second] = 1;
                if (group[it->second] < 0 || group[it->second] != group[i])
                    usedOutside[it->second] = 1;
            }
    // Every member's id maps to its run's first op.
    std::unordered_map<std::uint64_t, std::uint64_t> rename;
    for (const auto& [begin, end] : runs)
        for (std::size_t k = begin + 1; k < end; ++k)
            rename.emplace(in.ops[k].id, in.ops[begin].id);
    const auto renamed = [&rename](std::vector<std::uint64_t> deps, std::uint64_t self) {
        for (std::uint64_t& d : deps)
            if (const auto it = rename.find(d); it != rename.end())
                d = it->second;
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        deps.erase(std::remove(deps.begin(), deps.end(), self), deps.end());
        return deps;
    };

    Program out;
    out.name = in.name;
    out.schemaVersion = in.schemaVersion;
    out.metadataAttributes = in.metadataAttributes;
    out.commSlots = in.commSlots;
    out.ops.reserve(n);
    for (std::size_t i = 0; i < n;) {
        if (group[i] < 0) {
            Op op = in.ops[i];
            op.dataDeps = renamed(std::move(op.dataDeps), op.id);
            op.ctrlDeps = renamed(std::move(op.ctrlDeps), op.id);
            out.ops.push_back(std::move(op));
            ++i;
            continue;
        }
        const auto [begin, end] = runs[static_cast<std::size_t>(group[i])];
        Op fused;
        fused.id = in.ops[begin].id;
        fused.kind = OpKind::Compute;
        const std::string_view key = fusedKey(in.ops[begin].scope);
        const std::size_t slash = key.rfind('/');
        const std::string_view last = slash == std::string_view::npos ? key : key.substr(slash + 1);
        fused.name = std::string(last.substr(0, last.size() - 6));
        // A causal flash-attention kernel skips the tiles above the diagonal: half its work (Dao 2023,
        // FlashAttention-2, Sec. 3.1.1, "causal masking").
        const bool causal = fused.name.rfind("causal_", 0) == 0;
        fused.scope = slash == std::string_view::npos ? std::string() : std::string(key.substr(0, slash));
        std::uint64_t heaviest = 0;
        std::vector<std::uint64_t> readBefore; // tensors from outside that an earlier member read
        for (std::size_t k = begin; k < end; ++k) {
            const Op& op = in.ops[k];
            fused.flops += causal ? op.flops / 2 : op.flops;
            if (op.flops >= heaviest) {
                heaviest = op.flops;
                fused.dtype = op.dtype;
                fused.shape = op.shape;
            }
            // Not read from device memory: what the kernel produced itself, and a tensor from outside
            // that an earlier member read already (a fused softmax or norm holds its row on chip).
            std::uint64_t inside = 0;
            for (std::uint64_t id : op.dataDeps) {
                const auto it = index.find(id);
                if (it != index.end() && group[it->second] == group[k]) {
                    inside += in.ops[it->second].bytesWritten;
                    continue;
                }
                fused.dataDeps.push_back(id);
                if (it == index.end())
                    continue;
                if (std::find(readBefore.begin(), readBefore.end(), id) != readBefore.end())
                    inside += in.ops[it->second].bytesWritten;
                else
                    readBefore.push_back(id);
            }
            for (std::uint64_t id : op.ctrlDeps) {
                const auto it = index.find(id);
                if (it == index.end() || group[it->second] != group[k])
                    fused.ctrlDeps.push_back(id);
            }
            fused.bytesRead += op.bytesRead > inside ? op.bytesRead - inside : 0;
            if (usedOutside[k] || !used[k])
                fused.bytesWritten += op.bytesWritten;
        }
        fused.dataDeps = renamed(std::move(fused.dataDeps), fused.id);
        fused.ctrlDeps = renamed(std::move(fused.ctrlDeps), fused.id);
        // The generator's flash-attention kernels (ModelGenerator's flashScope): priced by the
        // measured throughput of attention kernels, not of plain matmuls.
        if (fused.name == "causal_core" || fused.name == "core")
            setKernelClass(fused, KernelClass::AttentionForward);
        else if (fused.name == "causal_core_backward" || fused.name == "core_backward")
            setKernelClass(fused, KernelClass::AttentionBackward);
        out.ops.push_back(std::move(fused));
        i = end;
    }
    return out;
}

/// Drops compute ops that cost nothing (reshapes, which only rename a buffer): their dependents
/// depend on what they depended on. Fewer ops make composing and estimating a step faster.
Program dropFreeOps(Program in)
{
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> forwarded;
    const auto resolve = [&forwarded](std::vector<std::uint64_t>& deps) {
        bool changed = false;
        std::vector<std::uint64_t> out;
        out.reserve(deps.size());
        for (std::uint64_t d : deps) {
            if (const auto it = forwarded.find(d); it != forwarded.end()) {
                out.insert(out.end(), it->second.begin(), it->second.end());
                changed = true;
            } else {
                out.push_back(d);
            }
        }
        if (changed) {
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            deps.swap(out);
        }
    };
    std::vector<Op> kept;
    kept.reserve(in.ops.size());
    for (Op& op : in.ops) {
        resolve(op.dataDeps);
        resolve(op.ctrlDeps);
        if (op.kind == OpKind::Compute && op.flops == 0 && op.bytesRead == 0 && op.bytesWritten == 0) {
            std::vector<std::uint64_t> deps = op.dataDeps;
            deps.insert(deps.end(), op.ctrlDeps.begin(), op.ctrlDeps.end());
            forwarded.emplace(op.id, std::move(deps));
            continue;
        }
        kept.push_back(std::move(op));
    }
    in.ops = std::move(kept);
    return in;
}

/// Megatron-LM's tensor-parallel communication overlap (`--tp-comm-overlap`, Transformer Engine's
/// userbuffers, with the methods TransformerEngine pytorch/module/base.py initialize_ub gives each
/// GEMM by default). A sequence-parallel all-gather feeding GEMMs runs as a ring exchange
/// (qkv_fprop, fc1_fprop, proj_dgrad, fc2_dgrad): each rank starts its GEMM on its own shard while
/// the next shard arrives from its neighbour, so the GEMMs wait for no communication and only their
/// users wait for all of it. A reduce-scatter of a GEMM's output is pipelined (proj_fprop,
/// fc2_fprop; num_splits 4): the GEMM runs in 4 chunks and each chunk's reduce-scatter starts when
/// the chunk is done, so 3/4 of the bytes go while the GEMM runs and the last 1/4 after it. Modelled
/// on the lowered block: the all-gather's GEMMs no longer depend on it, their users do; the
/// reduce-scatter becomes its first three chunks, started with the GEMM that produces its input, and
/// the last chunk after it. So an overlapped pair takes about max(G, C_ag) + C_rs / 4. The backward
/// pass's bulk overlaps (the gathered input for the weight gradients beside the data-gradient GEMM,
/// the data gradient's reduce-scatter beside the weight-gradient GEMMs) need no rewrite: nothing in
/// the dependency graph holds them back. `tpSlots` marks the tensor-parallel slots.
Program overlapTensorParallelComm(const Program& in, const std::vector<char>& tpSlots)
{
    constexpr std::uint64_t kPipelineSplits = 4; // initialize_ub's num_splits for "pipeline" layers
    const auto isTp = [&](const Op& op) {
        return op.kind == OpKind::Collective && op.commSlot >= 0 &&
               static_cast<std::size_t>(op.commSlot) < tpSlots.size() && tpSlots[static_cast<std::size_t>(op.commSlot)];
    };
    // A GEMM: a compute op of high arithmetic intensity (a matmul of even 32-wide operands does
    // 10 FLOPs per byte; elementwise kernels do about one).
    const auto isGemm = [](const Op& op) {
        return op.kind == OpKind::Compute && kernelClassOf(op) == KernelClass::Generic && op.flops > 0 &&
               static_cast<double>(op.flops) >=
                   16.0 * static_cast<double>(std::max<std::uint64_t>(1, op.memoryBytes()));
    };
    Program out = in;
    std::unordered_map<std::uint64_t, std::size_t> index;
    std::uint64_t nextId = 0;
    for (std::size_t i = 0; i < out.ops.size(); ++i) {
        index.emplace(out.ops[i].id, i);
        nextId = std::max(nextId, out.ops[i].id + 1);
    }
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> users; // id -> ops reading it
    for (std::size_t i = 0; i < out.ops.size(); ++i)
        for (std::uint64_t d : out.ops[i].dataDeps)
            users[d].push_back(i);
    const auto usersOf = [&](std::uint64_t id) -> const std::vector<std::size_t>& {
        static const std::vector<std::size_t> none;
        const auto it = users.find(id);
        return it == users.end() ? none : it->second;
    };
    const auto producersOf = [&](const Op& op) {
        std::vector<std::size_t> producers;
        for (std::uint64_t d : op.dataDeps)
            if (const auto it = index.find(d); it != index.end())
                producers.push_back(it->second);
        return producers;
    };
    // The GEMMs within three data edges of `start` (downstream or upstream), through compute ops only.
    const auto gemmsNear = [&](const Op& start, bool downstream) {
        std::vector<std::size_t> gemms, frontier = downstream ? usersOf(start.id) : producersOf(start);
        for (int depth = 0; depth < 3 && !frontier.empty(); ++depth) {
            std::vector<std::size_t> next;
            for (std::size_t u : frontier) {
                const Op& op = out.ops[u];
                if (isGemm(op)) {
                    gemms.push_back(u);
                } else if (op.kind == OpKind::Compute) {
                    const std::vector<std::size_t> more = downstream ? usersOf(op.id) : producersOf(op);
                    next.insert(next.end(), more.begin(), more.end());
                }
            }
            frontier = std::move(next);
        }
        return gemms;
    };
    // A new collective carrying `bytes` of `c`, named after it.
    const auto chunkOf = [&nextId](const Op& c, const char* suffix, std::uint64_t bytes) {
        Op part = c;
        part.id = nextId++;
        part.name = c.name + suffix;
        part.commBytes = bytes;
        return part;
    };
    std::vector<std::pair<std::size_t, Op>> inserts; // new op before position
    for (std::size_t i = 0; i < in.ops.size(); ++i) {
        Op& c = out.ops[i];
        if (!isTp(c) || c.commBytes < kPipelineSplits)
            continue;
        if (c.collective == CollectiveKind::AllGather) {
            // The GEMMs the gathered tensor feeds, through at most a few cheap ops (casts).
            const std::vector<std::size_t> gemms = gemmsNear(c, true);
            if (gemms.empty())
                continue;
            // Ring exchange: a GEMM reading the gathered tensor starts on the rank's own shard, i.e. once
            // what the gather waited for is there; every other reader waits for the whole gather.
            for (std::size_t u : usersOf(c.id)) {
                Op& user = out.ops[u];
                if (!isGemm(user))
                    continue;
                std::erase(user.dataDeps, c.id);
                user.dataDeps.insert(user.dataDeps.end(), c.dataDeps.begin(), c.dataDeps.end());
                user.ctrlDeps.insert(user.ctrlDeps.end(), c.ctrlDeps.begin(), c.ctrlDeps.end());
            }
            for (std::size_t g : gemms)
                for (std::size_t u : usersOf(out.ops[g].id))
                    out.ops[u].ctrlDeps.push_back(c.id);
            // The ring exchange copies on the copy engines (initialize_ub: use_ce, num_sm 1): it
            // takes no SMs from the GEMMs beside it.
            setRunsOnCopyEngines(c);
        } else if (c.collective == CollectiveKind::ReduceScatter) {
            const std::uint64_t chunk = c.commBytes / kPipelineSplits;
            // The GEMMs that produce the scattered tensor, through at most a few cheap ops.
            const std::vector<std::size_t> gemms = gemmsNear(c, false);
            if (gemms.empty())
                continue;
            Op early = chunkOf(c, "/overlapped_chunks", c.commBytes - chunk);
            early.dataDeps.clear();
            early.ctrlDeps.clear();
            for (std::size_t g : gemms) {
                const Op& gemm = out.ops[g];
                early.ctrlDeps.insert(early.ctrlDeps.end(), gemm.dataDeps.begin(), gemm.dataDeps.end());
                early.ctrlDeps.insert(early.ctrlDeps.end(), gemm.ctrlDeps.begin(), gemm.ctrlDeps.end());
            }
            std::sort(early.ctrlDeps.begin(), early.ctrlDeps.end());
            early.ctrlDeps.erase(std::unique(early.ctrlDeps.begin(), early.ctrlDeps.end()), early.ctrlDeps.end());
            c.commBytes = chunk;
            c.ctrlDeps.push_back(early.id);
            inserts.emplace_back(i, std::move(early));
        }
    }
    // New ops go right before the collective they split off (their dependencies precede it).
    std::vector<Op> ops;
    ops.reserve(out.ops.size() + inserts.size());
    std::size_t next = 0;
    for (std::size_t i = 0; i < out.ops.size(); ++i) {
        while (next < inserts.size() && inserts[next].first == i)
            ops.push_back(std::move(inserts[next++].second));
        ops.push_back(std::move(out.ops[i]));
    }
    out.ops = std::move(ops);
    return out;
}

std::int64_t tensorBytes(double elements, double bytesPerElement)
{
    return static_cast<std::int64_t>(elements * bytesPerElement);
}

/// Builds the program of one pipeline stage by appending block copies.
class StageBuilder {
public:
    explicit StageBuilder(std::int64_t stage)
        : m_stage(stage)
    {
        m_program.name = "stage " + std::to_string(stage);
    }

    /// Appends a copy of `block` whose entry ops depend on `after`; returns its exit ops (those no
    /// other op of the block consumes).
    std::vector<std::uint64_t> append(const ModelCompiler::LoweredBlock& block, const std::string& scope,
                                      const std::vector<std::uint64_t>& after, bool serialCollectives = false)
    {
        std::uint64_t lastCollective = 0;
        const std::vector<std::int32_t>& slots = slotMap(block);
        const std::uint64_t base = m_nextId;
        std::uint64_t maxId = 0;
        for (const Op& op : block.program.ops)
            maxId = std::max(maxId, op.id);
        m_nextId += maxId + 1;
        std::vector<char> consumed;
        const auto exits = exitsOf(block);
        const std::string prefix = scope.empty() ? std::string() : scope + "/";
        for (const Op& src : block.program.ops) {
            // Copied into place (the ops are reserved): a stage of a big pipeline holds some 50,000
            // ops, and moving each from a temporary costs as much as the copy.
            Op& op = m_program.ops.emplace_back(src);
            op.id += base;
            for (std::uint64_t& d : op.dataDeps)
                d += base;
            for (std::uint64_t& d : op.ctrlDeps)
                d += base;
            if (src.dataDeps.empty() && src.ctrlDeps.empty())
                op.ctrlDeps = after;
            if (op.scope.empty())
                op.scope = scope;
            else
                op.scope.insert(0, prefix);
            if (op.commSlot >= 0)
                op.commSlot = slots[static_cast<std::size_t>(op.commSlot)];
            if (serialCollectives && op.kind == OpKind::Collective) {
                if (lastCollective != 0)
                    op.ctrlDeps.push_back(lastCollective);
                lastCollective = op.id;
            }
        }
        std::vector<std::uint64_t> result;
        result.reserve(exits.size());
        for (std::uint64_t id : exits)
            result.push_back(id + base);
        return result;
    }

    /// A point-to-point transfer with the stage at `peerStage` of the pipeline group.
    std::uint64_t transfer(bool send, std::int64_t peerStage, std::int32_t tag, std::uint64_t bytes,
                           const std::string& scope, const std::string& name, const std::vector<std::uint64_t>& after)
    {
        Op op;
        op.id = m_nextId++;
        op.kind = send ? OpKind::Send : OpKind::Recv;
        op.name = name;
        op.scope = scope;
        op.commBytes = bytes;
        op.commSlot = pipelineSlot();
        op.commTag = tag;
        if (send) {
            op.commSrc = static_cast<std::int32_t>(m_stage);
            op.commDst = static_cast<std::int32_t>(peerStage);
        } else {
            op.commSrc = static_cast<std::int32_t>(peerStage);
            op.commDst = static_cast<std::int32_t>(m_stage);
        }
        op.dataDeps = after;
        m_program.ops.push_back(std::move(op));
        return m_program.ops.back().id;
    }

    /// An all-reduce of the tied embedding's gradient between the first and the last stage.
    std::uint64_t tiedAllReduce(std::uint64_t bytes, const std::vector<std::uint64_t>& after)
    {
        Op op;
        op.id = m_nextId++;
        op.kind = OpKind::Collective;
        op.collective = CollectiveKind::AllReduce;
        op.name = "tied_embedding_all_reduce";
        op.scope = "embedding";
        op.commBytes = bytes;
        op.dtype = DType::F32;
        op.commSlot = m_program.commSlotFor("tied embedding (first and last stage)");
        m_tiedSlot = op.commSlot;
        op.dataDeps = after;
        m_program.ops.push_back(std::move(op));
        return m_program.ops.back().id;
    }

    std::int32_t pipelineSlot()
    {
        if (m_pipelineSlot < 0)
            m_pipelineSlot = m_program.commSlotFor("pipeline (stages of this data-parallel position)");
        return m_pipelineSlot;
    }

    Program& program() { return m_program; }
    /// Per stage-level slot: its pattern, or null for the pipeline and tied-embedding slots.
    std::vector<const SlotBinding*> slotPatterns() const { return m_patterns; }
    std::int32_t pipelineSlotIndex() const { return m_pipelineSlot; }
    std::int32_t tiedSlotIndex() const { return m_tiedSlot; }

private:
    const std::vector<std::int32_t>& slotMap(const ModelCompiler::LoweredBlock& block)
    {
        auto it = m_slotMaps.find(&block);
        if (it != m_slotMaps.end())
            return it->second;
        std::vector<std::int32_t> map;
        for (std::size_t s = 0; s < block.slotPatterns.size(); ++s) {
            // Slots of equal groups on every device share one stage-level slot.
            const SlotBinding& pattern = block.slotPatterns[s];
            std::int32_t found = -1;
            for (std::size_t k = 0; k < m_patterns.size(); ++k)
                if (m_patterns[k] && *m_patterns[k] == pattern) {
                    found = static_cast<std::int32_t>(k);
                    break;
                }
            if (found < 0) {
                found = m_program.commSlotFor(block.program.commSlots[s] + " #" + std::to_string(m_patterns.size()));
                if (m_patterns.size() <= static_cast<std::size_t>(found))
                    m_patterns.resize(static_cast<std::size_t>(found) + 1, nullptr);
                m_patterns[static_cast<std::size_t>(found)] = &pattern;
            }
            map.push_back(found);
        }
        return m_slotMaps.emplace(&block, std::move(map)).first->second;
    }

    const std::vector<std::uint64_t>& exitsOf(const ModelCompiler::LoweredBlock& block)
    {
        auto it = m_exits.find(&block);
        if (it != m_exits.end())
            return it->second;
        std::unordered_set<std::uint64_t> consumed;
        for (const Op& op : block.program.ops) {
            consumed.insert(op.dataDeps.begin(), op.dataDeps.end());
            consumed.insert(op.ctrlDeps.begin(), op.ctrlDeps.end());
        }
        std::vector<std::uint64_t> exits;
        for (const Op& op : block.program.ops)
            if (!consumed.count(op.id))
                exits.push_back(op.id);
        return m_exits.emplace(&block, std::move(exits)).first->second;
    }

    std::int64_t m_stage;
    Program m_program;
    std::uint64_t m_nextId = 1;
    std::int32_t m_pipelineSlot = -1;
    std::int32_t m_tiedSlot = -1;
    std::vector<const SlotBinding*> m_patterns;
    std::unordered_map<const void*, std::vector<std::int32_t>> m_slotMaps;
    std::unordered_map<const void*, std::vector<std::uint64_t>> m_exits;
};

/// Parameters one rank of `stage` updates before tensor parallelism: dense ones, plus its expert
/// parallel share of the experts.
double stageParameterCount(const TransformerConfig& model, const ParallelConfig& parallel, std::int64_t stage)
{
    const double h = static_cast<double>(model.hidden);
    double count = 0;
    for (std::int64_t layer : stageLayers(model, parallel, stage)) {
        double all = model.layerParameters(layer);
        if (model.isMoeLayer(layer)) {
            const double routed = static_cast<double>(model.experts) * (model.gatedMlp ? 3.0 : 2.0) * h *
                                  static_cast<double>(model.expertFfn);
            all += routed / static_cast<double>(parallel.ep) - routed;
        }
        count += all;
    }
    const double table = static_cast<double>(model.vocab) * h;
    if (stage == 0)
        count += table + (model.learnedPositions ? static_cast<double>(model.seqLen) * h : 0.0);
    if (stage == parallel.pp - 1)
        count += (model.tiedEmbeddings && stage == 0 ? 0.0 : table) + h;
    return count;
}

} // namespace

ModelCompiler::ModelCompiler() = default;
ModelCompiler::~ModelCompiler() = default;

std::shared_ptr<const ModelCompiler::LoweredBlock> ModelCompiler::lower(const std::string& text,
                                                                        const std::string& mesh, bool& reused)
{
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_cache.find(text); it != m_cache.end()) {
            reused = true;
            return it->second;
        }
    }
    reused = false;
    frontend::MlirImportOptions options;
    options.mesh = mesh;
    const frontend::MlirImport imported = frontend::importMlirSource(text, "generated block", options);
    auto block = std::make_shared<LoweredBlock>();
    const Workload& w = imported.imported.workload;
    if (w.programs.size() != 1)
        throw InputError("generated block", "the partitioned block has " + std::to_string(w.programs.size()) +
                                                " programs; expected one SPMD program");
    // Free ops first, so that a reshape between two ops of one kernel does not split the kernel.
    block->program = fuseKernels(dropFreeOps(*w.programs.front()));
    block->devices = static_cast<std::int64_t>(w.rankCount());
    block->slotPatterns.resize(block->program.commSlots.size());
    for (std::size_t s = 0; s < block->slotPatterns.size(); ++s) {
        SlotBinding& pattern = block->slotPatterns[s];
        std::unordered_map<std::uint32_t, std::int32_t> local; // workload group -> index in pattern
        pattern.groupOf.resize(w.rankCount());
        for (std::size_t d = 0; d < w.rankCount(); ++d) {
            const std::uint32_t group = w.ranks[d].slotGroups[s];
            const auto [it, added] = local.try_emplace(group, static_cast<std::int32_t>(pattern.groups.size()));
            if (added)
                pattern.groups.push_back(w.groups[group].ranks);
            pattern.groupOf[d] = it->second;
        }
    }
    block->warnings = imported.imported.warnings;
    std::lock_guard lock(m_mutex);
    return m_cache.emplace(text, std::move(block)).first->second;
}

std::vector<std::pair<std::string, std::string>> ModelCompiler::blockTexts(const TransformerConfig& model,
                                                                           const ParallelConfig& parallel)
{
    std::vector<std::pair<std::string, std::string>> texts;
    const bool training = parallel.phase == Phase::Training;
    bool dense = false, moe = false;
    for (std::int64_t l = 0; l < model.layers; ++l)
        (model.isMoeLayer(l) ? moe : dense) = true;
    const auto add = [&](Block block, bool isMoe, double params = 0) {
        texts.emplace_back(std::string(displayName(block)) + (isMoe ? " (MoE)" : ""),
                           generateBlock(block, model, parallel, isMoe, params));
    };
    add(Block::EmbeddingForward, false);
    for (bool isMoe : {false, true}) {
        if ((isMoe && !moe) || (!isMoe && !dense))
            continue;
        add(Block::LayerForward, isMoe);
        if (training) {
            add(Block::LayerBackward, isMoe);
            add(Block::LayerGradientSync, isMoe);
            if (parallel.gathersParametersPerLayer())
                add(Block::LayerParameterGather, isMoe);
            if (parallel.dtype == Precision::FP8)
                add(Block::LayerWeightCast, isMoe);
        }
    }
    add(Block::HeadForward, false);
    if (training && parallel.gathersParametersPerLayer()) {
        add(Block::EmbeddingParameterGather, false);
        add(Block::HeadParameterGather, false);
    }
    if (training) {
        add(Block::HeadBackward, false);
        add(Block::HeadGradientSync, false);
        add(Block::EmbeddingBackward, false);
        add(Block::EmbeddingGradientSync, false);
        add(Block::Optimizer, false, stageParameterCount(model, parallel, 0));
    }
    return texts;
}

CompiledModel ModelCompiler::compile(const TransformerConfig& model, const ParallelConfig& parallel,
                                     const JobControl& control)
{
    if (const auto problems = validateStrategy(model, parallel); !problems.empty()) {
        std::string message = problems.front().message + " (try " + problems.front().suggestion + ")";
        for (std::size_t i = 1; i < problems.size(); ++i)
            message += "; " + problems[i].message + " (try " + problems[i].suggestion + ")";
        throw InputError("strategy", message);
    }
    if (auto kept = recent(model, parallel)) {
        CompiledModel again = *kept;
        again.blocksReused = kept->blocksLowered + kept->blocksReused;
        again.blocksLowered = 0;
        control.report(1.0);
        return again;
    }
    CompiledModel out;
    out.model = model;
    out.parallel = parallel;
    out.memory = memoryPerRank(model, parallel);
    out.modelFlops = modelFlopsPerStep(model, parallel);
    out.bubbleFraction = pipelineBubbleFraction(parallel);
    const bool training = parallel.phase == Phase::Training;
    const double seq = static_cast<double>(parallel.sequenceLength(model));
    out.tokensPerStep =
        static_cast<double>(parallel.effectiveGlobalBatch()) * (parallel.phase == Phase::Decode ? 1.0 : seq);
    const StageMesh mesh = stageMesh(parallel);
    out.meshText = mesh.text();
    const std::int64_t devices = mesh.devices();

    std::vector<std::string> warningsSeen;
    // Lower the blocks the cache lacks first, in parallel (each import has its own MLIR context).
    std::set<std::string> loweredNow;
    {
        std::vector<std::string> missing;
        for (auto& [name, text] : blockTexts(model, parallel)) {
            std::lock_guard lock(m_mutex);
            if (!m_cache.count(text) && std::find(missing.begin(), missing.end(), text) == missing.end())
                missing.push_back(std::move(text));
        }
        for (std::int64_t stage = 0; training && stage < parallel.pp; ++stage) {
            std::string text =
                generateBlock(Block::Optimizer, model, parallel, false, stageParameterCount(model, parallel, stage));
            std::lock_guard lock(m_mutex);
            if (!m_cache.count(text) && std::find(missing.begin(), missing.end(), text) == missing.end())
                missing.push_back(std::move(text));
        }
        std::atomic<std::size_t> next{0};
        std::vector<std::future<void>> workers;
        const std::size_t threads =
            std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(1, missing.size()));
        for (std::size_t t = 0; t < threads; ++t)
            workers.push_back(std::async(std::launch::async, [&] {
                for (std::size_t i = next++; i < missing.size(); i = next++) {
                    control.check();
                    bool reused = false;
                    lower(missing[i], out.meshText, reused);
                }
            }));
        for (auto& worker : workers)
            worker.wait();
        for (auto& worker : workers)
            worker.get();
        loweredNow.insert(missing.begin(), missing.end());
    }
    const auto lowerBlock = [&](Block block, bool isMoe, double params = 0) {
        control.check();
        bool reused = false;
        const std::string text = generateBlock(block, model, parallel, isMoe, params);
        auto lowered = lower(text, out.meshText, reused);
        ++(reused && !loweredNow.count(text) ? out.blocksReused : out.blocksLowered);
        for (const Message& w : lowered->warnings)
            if (std::find(warningsSeen.begin(), warningsSeen.end(), w.text()) == warningsSeen.end()) {
                warningsSeen.push_back(w.text());
                out.warnings.push_back(w.prefixed(std::string(displayName(block)) + ": "));
            }
        if (lowered->devices != devices)
            throw InputError("generated block", std::string(displayName(block)) + " lowered for " +
                                                    std::to_string(lowered->devices) + " devices, expected " +
                                                    std::to_string(devices));
        if (parallel.tpCommOverlap && parallel.tp > 1 && training &&
            (block == Block::LayerForward || block == Block::LayerBackward)) {
            // Tensor-parallel slots: every group tp consecutive devices (TP is the fastest axis).
            std::vector<char> tpSlots(lowered->slotPatterns.size(), 0);
            for (std::size_t slot = 0; slot < tpSlots.size(); ++slot) {
                bool all = !lowered->slotPatterns[slot].groups.empty();
                for (const auto& group : lowered->slotPatterns[slot].groups) {
                    all = all && static_cast<std::int64_t>(group.size()) == parallel.tp;
                    for (std::size_t k = 1; all && k < group.size(); ++k)
                        all = group[k] == group[k - 1] + 1;
                }
                tpSlots[slot] = all ? 1 : 0;
            }
            auto overlapped = std::make_shared<LoweredBlock>(*lowered);
            overlapped->program = overlapTensorParallelComm(lowered->program, tpSlots);
            return std::shared_ptr<const LoweredBlock>(std::move(overlapped));
        }
        return lowered;
    };
    bool hasDense = false, hasMoe = false;
    for (std::int64_t l = 0; l < model.layers; ++l)
        (model.isMoeLayer(l) ? hasMoe : hasDense) = true;
    // ZeRO-3 / FSDP: each unit (a layer; the embedding and the head, FSDP's root unit) gathers its
    // flat parameter before it computes and reduce-scatters its gradients after every microbatch's
    // backward pass (docs/models.md, "ZeRO-3 and FSDP").
    const bool fsdp = training && parallel.zero == ZeroStage::Parameters;
    // FSDP under a pipeline schedule, as torch.distributed.pipelining runs it (torchtitan's FSDP with
    // PP; PipelineStage.backward_maybe_with_nosync): every backward pass but the last microbatch's
    // skips the gradient reduction and keeps the unit gathered (set_requires_gradient_sync(False),
    // set_reshard_after_backward(False)); after the last microbatch's backward pass of a chunk, each
    // unit's gradients are reduce-scattered (its post_backward, run for every unit of the chunk). With
    // reshard after forward off (torchtitan's default under PP) a unit is gathered once, by the first
    // microbatch's forward pass.
    const bool pipelinedFsdp = fsdp && parallel.pp > 1;
    // ZeRO-1/2 with overlapped parameter gathers: the layers gather before their first forward pass.
    const bool gatherFirst = training && !fsdp && parallel.gathersParametersPerLayer();
    // FP8 training: the layers' weights cast once a step, before the first microbatch's forward
    // pass (under ZeRO-3 after every gather); the layer blocks read the cast (docs/models.md).
    const bool fp8Training = training && parallel.dtype == Precision::FP8;
    std::shared_ptr<const LoweredBlock> fwd[2], bwd[2], sync[2], gather[2], cast[2];
    for (int isMoe = 0; isMoe < 2; ++isMoe) {
        if (!(isMoe ? hasMoe : hasDense))
            continue;
        fwd[isMoe] = lowerBlock(Block::LayerForward, isMoe);
        if (training) {
            bwd[isMoe] = lowerBlock(Block::LayerBackward, isMoe);
            sync[isMoe] = lowerBlock(Block::LayerGradientSync, isMoe);
        }
        if (fp8Training)
            cast[isMoe] = lowerBlock(Block::LayerWeightCast, isMoe);
        if (fsdp || gatherFirst)
            gather[isMoe] = lowerBlock(Block::LayerParameterGather, isMoe);
    }
    const auto embF = lowerBlock(Block::EmbeddingForward, false);
    const auto headF = lowerBlock(Block::HeadForward, false);
    std::shared_ptr<const LoweredBlock> embB, headB, embSync, headSync, embGather, headGather;
    if (training) {
        embB = lowerBlock(Block::EmbeddingBackward, false);
        headB = lowerBlock(Block::HeadBackward, false);
        embSync = lowerBlock(Block::EmbeddingGradientSync, false);
        headSync = lowerBlock(Block::HeadGradientSync, false);
    }
    if (fsdp || gatherFirst) {
        embGather = lowerBlock(Block::EmbeddingParameterGather, false);
        headGather = lowerBlock(Block::HeadParameterGather, false);
    }
    control.report(0.3);

    const std::int64_t pp = parallel.pp;
    const std::int64_t chunks = parallel.schedule == PipelineSchedule::Interleaved ? parallel.virtualStages : 1;
    const std::int64_t microbatches = parallel.microbatches();
    const std::int64_t virtualStages = pp * chunks;
    // Activations between stages: one microbatch's [b, s, h] in bf16 per rank, split over CP and
    // (Megatron-LM's scatter-gather of pipeline tensors) over TP.
    const double tokensPerRank = static_cast<double>(parallel.microbatchSize) *
                                 (parallel.phase == Phase::Decode ? 1.0 : seq / static_cast<double>(parallel.cp));
    const auto p2pBytes = static_cast<std::uint64_t>(
        tensorBytes(tokensPerRank * static_cast<double>(model.hidden) / static_cast<double>(parallel.tp), 2.0));
    const auto fwdTag = [&](std::int64_t receiver, std::int64_t mb) {
        return static_cast<std::int32_t>(2 * (receiver * microbatches + mb));
    };
    const auto bwdTag = [&](std::int64_t sender, std::int64_t mb) {
        return static_cast<std::int32_t>(2 * (sender * microbatches + mb) + 1);
    };

    std::vector<std::shared_ptr<const Program>> programs;
    std::vector<std::vector<const SlotBinding*>> patterns;
    std::vector<std::int32_t> pipelineSlots, tiedSlots;
    const bool tiedAcrossStages = training && model.tiedEmbeddings && pp > 1;
    const double tiedBytes =
        static_cast<double>(model.vocab) * static_cast<double>(model.hidden) / static_cast<double>(parallel.tp) * 4.0;
    // The optimizer blocks first (their parameter counts differ between the first, middle and last
    // stages), so that the stages can be composed in parallel from lowered blocks only.
    std::vector<std::shared_ptr<const LoweredBlock>> optimizers(static_cast<std::size_t>(pp));
    if (training)
        for (std::int64_t stage = 0; stage < pp; ++stage) {
            bool reused = false;
            const std::string text =
                generateBlock(Block::Optimizer, model, parallel, false, stageParameterCount(model, parallel, stage));
            optimizers[static_cast<std::size_t>(stage)] = lower(text, out.meshText, reused);
            ++(reused && !loweredNow.count(text) ? out.blocksReused : out.blocksLowered);
        }
    struct ComposedStage {
        std::shared_ptr<const Program> program;
        std::vector<const SlotBinding*> patterns;
        std::int32_t pipelineSlot = -1;
        std::int32_t tiedSlot = -1;
    };
    const auto composeStage = [&](std::int64_t stage) {
        control.check();
        StageBuilder builder(stage);
        const std::vector<std::vector<std::int64_t>> layers = chunkLayers(model, parallel, stage);
        std::vector<std::uint64_t> chain;     // exits of the previous step
        std::vector<std::uint64_t> syncExits; // gradient syncs, for the optimizer
        // Gradient syncs run one collective after another, as on the data-parallel communicator's own
        // stream in Megatron-LM: two at once would take every communication stream and hold up the
        // tensor-parallel collectives of the backward passes still running (the last microbatch's
        // backward crosses every stage, so each stage's wait would add up along the pipeline).
        std::vector<std::uint64_t> lastSync;
        const auto afterSync = [&lastSync](std::vector<std::uint64_t> exits) {
            exits.insert(exits.end(), lastSync.begin(), lastSync.end());
            return exits;
        };
        // A gradient sync after `exits` and the sync before it; the optimizer waits for it.
        const auto appendSync = [&](const LoweredBlock& block, const std::string& scope,
                                    const std::vector<std::uint64_t>& exits) {
            auto s = builder.append(block, scope, afterSync(exits), true);
            syncExits.insert(syncExits.end(), s.begin(), s.end());
            lastSync = std::move(s);
        };
        const auto order = pipelineOrder(parallel.schedule, pp, chunks, microbatches, stage, training);
        {
            // Reserve the ops: a stage of GPT-3 175B holds some 70,000.
            std::size_t count = training ? optimizers[static_cast<std::size_t>(stage)]->program.ops.size() + 1 : 0;
            for (const PipelineStep& step : order) {
                const std::int64_t vstage = step.chunk * pp + stage;
                count += 2;
                for (std::int64_t layer : layers[static_cast<std::size_t>(step.chunk)]) {
                    const int isMoe = model.isMoeLayer(layer);
                    count += (step.backward ? bwd[isMoe] : fwd[isMoe])->program.ops.size();
                    if (gather[isMoe])
                        count += gather[isMoe]->program.ops.size();
                    if (cast[isMoe] && !step.backward && (fsdp || step.microbatch == 0))
                        count += cast[isMoe]->program.ops.size();
                    if (step.backward && (fsdp || step.microbatch == microbatches - 1))
                        count += sync[isMoe]->program.ops.size();
                }
                if (vstage == 0)
                    count +=
                        (step.backward ? embB : embF)->program.ops.size() + (embSync ? embSync->program.ops.size() : 0);
                if (vstage == virtualStages - 1)
                    count += (step.backward ? headB : headF)->program.ops.size() +
                             (headSync ? headSync->program.ops.size() : 0);
            }
            builder.program().ops.reserve(count);
        }
        // One unit of a step: a block, the FSDP parameter gather that must precede it (or none), the
        // FP8 weight cast between the two (or none) and the gradient sync that follows it (or none).
        struct Unit {
            const LoweredBlock* block = nullptr;
            std::string scope{};
            const LoweredBlock* gather = nullptr;
            const LoweredBlock* sync = nullptr;
            std::string syncScope{};
            const LoweredBlock* cast = nullptr;
            std::string castScope{};
        };
        // FSDP prefetch: the gather of the next unit is issued when the current one may start (the
        // unit before it has finished), after the previous gather, so at most two units are gathered
        // at once (FSDP's all-gather rate limit and backward prefetch; the forward gathers run ahead
        // of the compute as the CPU issues them early).
        std::vector<std::uint64_t> lastGather;
        // Gradient syncs held back until the backward pass is over (overlapGradReduce off).
        const bool deferSyncs = !fsdp && !parallel.overlapGradReduce;
        std::vector<std::pair<const LoweredBlock*, std::string>> deferred;
        const auto runUnits = [&](const std::vector<Unit>& units, std::vector<std::uint64_t> exits) {
            std::vector<std::vector<std::uint64_t>> gathered(units.size());
            std::vector<char> issued(units.size(), 0);
            const auto gatherUnit = [&](std::size_t i, std::vector<std::uint64_t> after) {
                after.insert(after.end(), lastGather.begin(), lastGather.end());
                gathered[i] = builder.append(*units[i].gather, units[i].scope, after);
                lastGather = gathered[i];
                issued[i] = 1;
            };
            for (std::size_t i = 0; i < units.size(); ++i) {
                const Unit& unit = units[i];
                const std::vector<std::uint64_t> entry = exits;
                if (unit.gather && !issued[i])
                    gatherUnit(i, entry);
                for (std::size_t j = i + 1; j < units.size(); ++j)
                    if (units[j].gather) {
                        if (!issued[j])
                            gatherUnit(j, entry);
                        break;
                    }
                std::vector<std::uint64_t> after = entry;
                after.insert(after.end(), gathered[i].begin(), gathered[i].end());
                if (unit.cast)
                    after = builder.append(*unit.cast, unit.castScope, after);
                exits = builder.append(*unit.block, unit.scope, after);
                if (unit.sync && deferSyncs) {
                    deferred.emplace_back(unit.sync, unit.syncScope);
                } else if (unit.sync) {
                    appendSync(*unit.sync, unit.syncScope, exits);
                }
            }
            return exits;
        };
        for (const PipelineStep& step : order) {
            const std::int64_t vstage = step.chunk * pp + stage;
            const bool first = vstage == 0;
            const bool last = vstage == virtualStages - 1;
            const std::string mbScope = "microbatch " + std::to_string(step.microbatch);
            const auto& chunk = layers[static_cast<std::size_t>(step.chunk)];
            std::vector<std::uint64_t> entry = chain;
            std::vector<Unit> units;
            if (!step.backward) {
                if (!first) {
                    const std::int64_t from = (stage + pp - 1) % pp;
                    entry.push_back(builder.transfer(false, from, fwdTag(vstage, step.microbatch), p2pBytes,
                                                     mbScope + "/pipeline", "recv_activations", {}));
                }
                // ZeRO-3 gathers before every forward pass (under a pipeline schedule without reshard
                // after forward, before the first); ZeRO-1/2 with overlapped gathers before the first
                // (the updated weights of the previous step).
                const bool gatherNow = fsdp ? parallel.reshardAfterForward || !pipelinedFsdp || step.microbatch == 0
                                            : gatherFirst && step.microbatch == 0;
                const auto gathered = [gatherNow](const std::shared_ptr<const LoweredBlock>& block) {
                    return gatherNow ? block.get() : nullptr;
                };
                if (first)
                    units.push_back(
                        {.block = embF.get(), .scope = mbScope + "/embedding/forward", .gather = gathered(embGather)});
                const bool castNow = fp8Training && (fsdp || step.microbatch == 0);
                for (std::int64_t layer : chunk) {
                    const int isMoe = model.isMoeLayer(layer) ? 1 : 0;
                    const std::string layerScope = mbScope + "/layer " + std::to_string(layer);
                    units.push_back({.block = fwd[isMoe].get(),
                                     .scope = layerScope + "/forward",
                                     .gather = gathered(gather[isMoe]),
                                     .cast = castNow ? cast[isMoe].get() : nullptr,
                                     .castScope = layerScope + "/fp8 weight cast"});
                }
                if (last)
                    units.push_back(
                        {.block = headF.get(), .scope = mbScope + "/head/forward", .gather = gathered(headGather)});
                const std::vector<std::uint64_t> exits = runUnits(units, entry);
                if (!last)
                    builder.transfer(true, (stage + 1) % pp, fwdTag(vstage + 1, step.microbatch), p2pBytes,
                                     mbScope + "/pipeline", "send_activations", exits);
                chain = exits;
                continue;
            }
            if (!last) {
                const std::int64_t from = (stage + 1) % pp;
                entry.push_back(builder.transfer(false, from, bwdTag(vstage + 1, step.microbatch), p2pBytes,
                                                 mbScope + "/pipeline", "recv_gradients", {}));
            }
            // Gradients are completed once, after the last microbatch; under FSDP after every one but
            // under a pipeline schedule, where the last microbatch's pass reduces them all at its end.
            const bool lastMicrobatch = step.microbatch == microbatches - 1;
            const bool syncNow = (fsdp && !pipelinedFsdp) || lastMicrobatch;
            const bool syncAtEnd = pipelinedFsdp && lastMicrobatch;
            const std::string syncPrefix = fsdp && !pipelinedFsdp ? "gradient sync/" + mbScope + "/" : "gradient sync/";
            // The head and the embedding form FSDP's root unit: gathered for the forward pass and kept
            // for the backward pass (the embedding's backward pass reads no parameter).
            if (last)
                units.push_back({.block = headB.get(),
                                 .scope = mbScope + "/head/backward",
                                 .sync = syncNow ? headSync.get() : nullptr,
                                 .syncScope = syncPrefix + "head"});
            for (auto it = chunk.rbegin(); it != chunk.rend(); ++it) {
                const std::int64_t layer = *it;
                const int isMoe = model.isMoeLayer(layer) ? 1 : 0;
                units.push_back({.block = bwd[isMoe].get(),
                                 .scope = mbScope + "/layer " + std::to_string(layer) + "/backward",
                                 .gather = fsdp && parallel.reshardAfterForward ? gather[isMoe].get() : nullptr,
                                 .sync = syncNow ? sync[isMoe].get() : nullptr,
                                 .syncScope = syncPrefix + "layer " + std::to_string(layer)});
            }
            if (first)
                units.push_back({.block = embB.get(),
                                 .scope = mbScope + "/embedding/backward",
                                 .sync = syncNow ? embSync.get() : nullptr,
                                 .syncScope = syncPrefix + "embedding"});
            std::vector<std::pair<const LoweredBlock*, std::string>> atEnd;
            if (syncAtEnd)
                for (Unit& unit : units)
                    if (unit.sync)
                        atEnd.emplace_back(std::exchange(unit.sync, nullptr), unit.syncScope);
            const std::vector<std::uint64_t> exits = runUnits(units, entry);
            if (!first)
                builder.transfer(true, (stage + pp - 1) % pp, bwdTag(vstage, step.microbatch), p2pBytes,
                                 mbScope + "/pipeline", "send_gradients", exits);
            for (const auto& [syncBlock, syncScope] : atEnd)
                appendSync(*syncBlock, syncScope, exits);
            chain = exits;
        }
        for (const auto& [syncBlock, syncScope] : deferred)
            appendSync(*syncBlock, syncScope, chain);
        if (training) {
            std::vector<std::uint64_t> before = chain;
            before.insert(before.end(), syncExits.begin(), syncExits.end());
            if (tiedAcrossStages && (stage == 0 || stage == pp - 1))
                before.push_back(builder.tiedAllReduce(static_cast<std::uint64_t>(tiedBytes), syncExits));
            builder.append(*optimizers[static_cast<std::size_t>(stage)], "optimizer", before);
        }
        ComposedStage composed;
        composed.patterns = builder.slotPatterns();
        composed.pipelineSlot = builder.pipelineSlotIndex();
        composed.tiedSlot = builder.tiedSlotIndex();
        composed.program = std::make_shared<const Program>(std::move(builder.program()));
        return composed;
    };
    // Stages are independent: compose them on the machine's cores.
    std::vector<ComposedStage> composed(static_cast<std::size_t>(pp));
    const std::int64_t threads =
        std::clamp<std::int64_t>(static_cast<std::int64_t>(std::thread::hardware_concurrency()), 1, pp);
    std::vector<std::future<void>> workers;
    std::atomic<std::int64_t> nextStage{0};
    for (std::int64_t t = 0; t < threads; ++t)
        workers.push_back(std::async(std::launch::async, [&] {
            for (std::int64_t stage = nextStage++; stage < pp; stage = nextStage++)
                composed[static_cast<std::size_t>(stage)] = composeStage(stage);
        }));
    for (auto& worker : workers)
        worker.wait();
    for (auto& worker : workers)
        worker.get(); // rethrows Cancelled or an error
    for (ComposedStage& c : composed) {
        programs.push_back(std::move(c.program));
        patterns.push_back(std::move(c.patterns));
        pipelineSlots.push_back(c.pipelineSlot);
        tiedSlots.push_back(c.tiedSlot);
    }
    control.report(0.9);

    // Ranks: stage-major, the stage mesh's device order inside (tp fastest).
    Workload& w = out.workload;
    w.programs = programs;
    w.ranks.resize(static_cast<std::size_t>(pp * devices));
    // Each distinct group of a stage's pattern is named once (linear in the members of distinct
    // groups); the pipeline and tied groups have pp and 2 members per device.
    Workload::GroupIndex index;
    for (std::int64_t stage = 0; stage < pp; ++stage) {
        const Program& program = *programs[static_cast<std::size_t>(stage)];
        const auto& stagePatterns = patterns[static_cast<std::size_t>(stage)];
        const auto patternOf = [&](std::size_t s) { return s < stagePatterns.size() ? stagePatterns[s] : nullptr; };
        std::vector<std::vector<std::uint32_t>> global(program.commSlots.size());
        for (std::size_t s = 0; s < program.commSlots.size(); ++s) {
            if (patternOf(s) == nullptr)
                continue;
            for (const std::vector<std::int32_t>& group : patternOf(s)->groups) {
                std::vector<std::int32_t> members;
                members.reserve(group.size());
                for (std::int32_t m : group)
                    members.push_back(static_cast<std::int32_t>(stage * devices + m));
                global[s].push_back(index.groupFor(w, std::move(members)));
            }
        }
        for (std::int64_t d = 0; d < devices; ++d) {
            RankBinding& binding = w.ranks[static_cast<std::size_t>(stage * devices + d)];
            binding.program = static_cast<std::uint32_t>(stage);
            binding.slotGroups.resize(program.commSlots.size());
            for (std::size_t s = 0; s < program.commSlots.size(); ++s) {
                if (const SlotBinding* pattern = patternOf(s)) {
                    binding.slotGroups[s] =
                        global[s][static_cast<std::size_t>(pattern->groupOf[static_cast<std::size_t>(d)])];
                    continue;
                }
                std::vector<std::int32_t> members;
                if (static_cast<std::int32_t>(s) == pipelineSlots[static_cast<std::size_t>(stage)]) {
                    for (std::int64_t k = 0; k < pp; ++k)
                        members.push_back(static_cast<std::int32_t>(k * devices + d));
                } else if (static_cast<std::int32_t>(s) == tiedSlots[static_cast<std::size_t>(stage)]) {
                    members = {static_cast<std::int32_t>(d), static_cast<std::int32_t>((pp - 1) * devices + d)};
                }
                binding.slotGroups[s] = index.groupFor(w, std::move(members));
            }
        }
    }
    // The mesh the ranks form, for the views' names of rank groups: stage-major, then the stage
    // mesh in its device order (tp fastest).
    const std::pair<const char*, std::int64_t> axes[] = {{"PP", pp},      {"DP replicas", mesh.dpr}, {"DP", mesh.dp},
                                                         {"EP", mesh.ep}, {"CP", mesh.cp},           {"TP", mesh.tp}};
    for (const auto& [name, size] : axes)
        if (size > 1)
            w.meshAxes.emplace_back(name, size);
    keep(out);
    control.report(1.0);
    return out;
}

std::shared_ptr<const CompiledModel> ModelCompiler::recent(const TransformerConfig& model,
                                                           const ParallelConfig& parallel)
{
    std::lock_guard lock(m_mutex);
    const auto it = std::find_if(m_recent.begin(), m_recent.end(),
                                 [&](const auto& kept) { return kept->parallel == parallel && kept->model == model; });
    if (it == m_recent.end())
        return nullptr;
    std::rotate(m_recent.begin(), it, it + 1); // most recently used first
    return m_recent.front();
}

void ModelCompiler::keep(const CompiledModel& compiled)
{
    const auto opsOf = [](const CompiledModel& m) {
        std::size_t ops = 0;
        for (const auto& program : m.workload.programs)
            ops += program->ops.size();
        return ops;
    };
    if (opsOf(compiled) > kRecentOps)
        return;
    auto entry = std::make_shared<const CompiledModel>(compiled);
    std::lock_guard lock(m_mutex);
    m_recent.insert(m_recent.begin(), std::move(entry));
    std::size_t total = 0, count = 0;
    for (const auto& kept : m_recent) {
        const std::size_t ops = opsOf(*kept);
        if (count == kRecentModels || total + ops > kRecentOps)
            break;
        total += ops;
        ++count;
    }
    m_recent.resize(count);
}

StepFigures stepFigures(const CompiledModel& compiled, const EstimateResult& estimate, const Cluster& cluster)
{
    StepFigures f;
    f.stepTime = estimate.stepTime;
    if (f.stepTime > 0) {
        f.tokensPerSecond = compiled.tokensPerStep / f.stepTime;
        const double peak = cluster.device.peakFlops(Precision::BF16);
        const double ranks = static_cast<double>(compiled.workload.rankCount());
        if (peak > 0)
            f.mfu = compiled.modelFlops / (f.stepTime * ranks * peak);
        double exposed = 0;
        for (const RankBreakdown& r : estimate.ranks)
            exposed = std::max(exposed, r.exposedComm);
        f.exposedCommFraction = exposed / f.stepTime;
    }
    f.bubbleFraction = compiled.bubbleFraction;
    f.memoryBytes = compiled.memory.total();
    f.memoryCapacity = cluster.device.memoryCapacity;
    f.outOfMemory = f.memoryCapacity > 0 && f.memoryBytes > f.memoryCapacity;
    return f;
}

} // namespace flint::core::model
