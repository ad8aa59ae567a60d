// SPDX-License-Identifier: MIT
#pragma once

#include "core/attribute.h"
#include "core/types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flint::core {

/// Chakra IOInfo: Python-literal-like text for an op's input or output values, shapes and types.
struct IoInfo {
    std::string values;
    std::string shapes;
    std::string types;

    friend bool operator==(const IoInfo&, const IoInfo&) = default;
};

/// Facts that few ops carry, kept out of line so that an Op stays small (a million-op program is
/// common). Compared and copied by value.
struct OpExtras {
    std::optional<IoInfo> inputs;
    std::optional<IoInfo> outputs;
    /// Attributes with no field of their own, in file order.
    std::vector<Attribute> attributes;
    /// Which topology dimensions the collective uses (Chakra involved_dim); empty means all.
    std::vector<bool> involvedDims;
    /// Collective-permute: (source, target) pairs of global ranks, the same on every rank.
    std::vector<std::pair<std::int32_t, std::int32_t>> sourceTargetPairs;

    friend bool operator==(const OpExtras&, const OpExtras&) = default;
};

/// A pointer to OpExtras with value semantics: compares by value, a null pointer equals an empty
/// OpExtras, and copies share the extras until one is changed (copy on write), so that copying the
/// ops of a block into a pipeline stage, a million times per compile, costs no allocation for them.
class OpExtrasPtr {
public:
    const OpExtras& get() const { return m_extras ? *m_extras : empty(); }
    bool has() const { return m_extras != nullptr; }
    OpExtras& mutate()
    {
        if (!m_extras)
            m_extras = std::make_shared<OpExtras>();
        else if (m_extras.use_count() > 1)
            m_extras = std::make_shared<OpExtras>(*m_extras);
        return *m_extras;
    }

    friend bool operator==(const OpExtrasPtr& a, const OpExtrasPtr& b)
    {
        return a.m_extras == b.m_extras || a.get() == b.get();
    }

private:
    static const OpExtras& empty()
    {
        static const OpExtras none;
        return none;
    }
    std::shared_ptr<OpExtras> m_extras;
};

/// Bits of Op::chakraAttributes: which of the attributes ASTRA-sim reads a Chakra node carried, so
/// that a trace read and written again keeps exactly its attributes. Ops made by a frontend leave the
/// mask 0 and the writer emits the standard set for the op's kind.
enum class ChakraAttr : std::uint16_t {
    IsCpuOp = 1 << 0,
    NumOps = 1 << 1,
    TensorSize = 1 << 2,
    CommType = 1 << 3,
    CommSize = 1 << 4,
    CommSrc = 1 << 5,
    CommDst = 1 << 6,
    CommTag = 1 << 7,
    CommPriority = 1 << 8,
    PgName = 1 << 9,
    InvolvedDim = 1 << 10,
    FromChakra = 1 << 15, ///< set on every op read from a Chakra trace, even one without known attributes
};

/// One operation of a device program.
///
/// Costs are per execution on one device: `flops` in floating-point operations, `bytesRead` and
/// `bytesWritten` in bytes of device memory traffic, `commBytes` in bytes this rank contributes to a
/// collective or moves by send/recv (Chakra's comm_size). Dependencies name other ops of the same
/// Program by `id`; a dependency on an id that the program does not hold is kept (real traces have
/// such dangling edges) and ignored by analyses.
struct Op {
    // Fields are ordered to leave no padding: a stage of a pipelined model holds some 50,000 ops and
    // a compile copies every one of them.
    std::uint64_t id = 0;
    std::string name;
    /// '/'-separated scope path (op-name path, loop iteration, fusion), outermost first; may be empty.
    std::string scope;

    std::uint64_t flops = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    std::uint64_t commBytes = 0;

    /// Recorded timing of a traced op, in microseconds (0 when not recorded).
    std::uint64_t startTimeMicros = 0;
    std::uint64_t durationMicros = 0;

    /// Collective or slot-relative send/recv: index into Program::commSlots, bound per rank to a
    /// group by the Workload; -1 means all ranks of the workload (a send/recv: global-rank peers).
    std::int32_t commSlot = -1;
    /// Send/recv endpoints and the message tag. With commSlot -1, commSrc and commDst are global
    /// ranks. With commSlot >= 0 they are positions in the group that slot is bound to on the
    /// executing rank r: a Send's peer is groups[ranks[r].slotGroups[commSlot]].ranks[commDst], a
    /// Recv's the same with commSrc, and the other field (r's own position) may be -1. One program
    /// then serves every rank of, say, a pipeline stage. Workload::peerOf and endpointsOf resolve
    /// both conventions; Chakra files always hold global ranks.
    std::int32_t commSrc = -1;
    std::int32_t commDst = -1;
    std::int32_t commTag = 0;
    std::int32_t commPriority = 0;

    OpKind kind = OpKind::Compute;
    /// Meaningful when kind == OpKind::Collective.
    CollectiveKind collective = CollectiveKind::AllReduce;
    bool isCpuOp = false;
    /// Result element type and shape when the frontend knows them. A dot or convolution on 8-bit
    /// floats takes its operands' type instead: the type sets the precision its multiply runs at.
    DType dtype = DType::Unknown;
    /// Bitmask of ChakraAttr: which known attributes the source trace carried.
    std::uint16_t chakraAttributes = 0;

    std::vector<std::uint64_t> dataDeps;
    std::vector<std::uint64_t> ctrlDeps;
    std::vector<std::int64_t> shape;

    /// IOInfo, other attributes, involved dimensions, permute pairs: see OpExtras.
    OpExtrasPtr extras;

    /// Bytes of device memory traffic (read + write), Chakra's tensor_size.
    std::uint64_t memoryBytes() const { return bytesRead + bytesWritten; }
    bool hasChakraAttribute(ChakraAttr attr) const
    {
        return (chakraAttributes & static_cast<std::uint16_t>(attr)) != 0;
    }
    bool isCommunication() const { return kind == OpKind::Send || kind == OpKind::Recv || kind == OpKind::Collective; }

    friend bool operator==(const Op&, const Op&) = default;
};

/// What a compute op is when its producer knows and the cost model prices it differently from a
/// generic kernel: the fused attention kernels of the built-in models. Carried as the OpExtras
/// attribute kKernelClassAttribute (a string), so that it survives a Chakra round trip.
enum class KernelClass : std::uint8_t { Generic, AttentionForward, AttentionBackward };

inline constexpr const char* kKernelClassAttribute = "kernel_class";

/// The op's kernel class; Generic without the attribute (the common case costs one pointer test).
KernelClass kernelClassOf(const Op& op);
/// Sets (or, for Generic, removes) the op's kernel-class attribute.
void setKernelClass(Op& op, KernelClass kernelClass);

/// A communication op whose transfers run on the GPU's copy engines and hold no SMs (Transformer
/// Engine's ring-exchange all-gathers), so compute beside it is not slowed the way NCCL's kernels
/// slow it (DeviceSpec::overlapSlowdown). Carried as the attribute kCommEngineAttribute =
/// "copy_engine", so that it survives a Chakra round trip.
inline constexpr const char* kCommEngineAttribute = "comm_engine";
bool runsOnCopyEngines(const Op& op);
void setRunsOnCopyEngines(Op& op);

/// What an op of a measured run was (core/measured: "kernel", "host gap", ...), carried as this
/// attribute so that it survives a Chakra round trip.
inline constexpr const char* kMeasuredAttribute = "measured";
/// A compute-stream op that is the device waiting for its host: a measured run's `host gap` (launch
/// latency, Python, data loading). It keeps the host's pace in a replay, but the breakdown counts its
/// time as the device idle, not computing (RankBreakdown::host).
bool isHostGap(const Op& op);

} // namespace flint::core
