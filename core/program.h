// SPDX-License-Identifier: MIT
#pragma once

#include "core/attribute.h"
#include "core/op.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace flint::core {

/// The ops one device runs for one step, in program order, with their dependencies.
///
/// A Program is a value: build it, then share it immutably (std::shared_ptr<const Program>) between
/// every rank that runs it. Not thread-safe to mutate; safe to read from many threads.
struct Program {
    /// Trace or module name, for display.
    std::string name;
    /// Chakra schema version of GlobalMetadata ("0.0.4" for what we write).
    std::string schemaVersion = "0.0.4";
    /// GlobalMetadata attributes, kept for lossless round trips.
    std::vector<Attribute> metadataAttributes;
    std::vector<Op> ops;
    /// Communicator slots referenced by Op::commSlot; each is bound to a group per rank. The string
    /// is the slot's name in the source (Chakra pg_name, or the frontend's group description).
    std::vector<std::string> commSlots;

    /// Index of the slot named `name`, adding it when new.
    std::int32_t commSlotFor(std::string_view name);
    /// Map from op id to its index in `ops`. Ids must be unique (see duplicateId()).
    std::unordered_map<std::uint64_t, std::uint32_t> indexById() const;
    /// An id used by more than one op, if any.
    std::optional<std::uint64_t> duplicateId() const;

    /// Longest dependency chain over data and control edges. Dangling dependencies and an op's
    /// dependency on itself (both occur in real PyTorch traces) are ignored; ops on or behind a
    /// remaining cycle are left out of the chain and counted instead.
    struct DependencyChain {
        std::uint64_t length = 0;      ///< ops on the longest chain; 0 for an empty program
        std::uint64_t opsOnCycles = 0; ///< ops that never become ready because of a cycle
    };
    DependencyChain longestDependencyChain() const;

    friend bool operator==(const Program&, const Program&) = default;
};

/// Op equality but for the recorded timing (startTimeMicros, durationMicros): two ranks of a measured
/// trace that run the same ops at different speeds.
bool sameExceptTiming(const Op& a, const Op& b);

/// How two programs compare when their names and comm slot names are set aside (ranks of a Chakra
/// trace: each rank file names its own process groups).
enum class ProgramMatch : std::uint8_t {
    Different,
    Same,             ///< ops, slot numbering and metadata equal
    SameExceptTiming, ///< equal but for the ops' recorded start times and durations
};
ProgramMatch matchPrograms(const Program& a, const Program& b);
/// A hash of what matchPrograms compares: equal for Same; with `timing` false, the recorded times left
/// out, so equal for SameExceptTiming too.
std::size_t contentHash(const Program& program, bool timing);

} // namespace flint::core
