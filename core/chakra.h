// SPDX-License-Identifier: MIT
#pragma once

#include "core/fileio.h"
#include "core/progress.h"
#include "core/workload.h"

#include <string>
#include <string_view>
#include <vector>

namespace flint::core {

/// Chakra execution traces (MLCommons schema 0.0.4, as ASTRA-sim reads them): one file per rank,
/// `PREFIX.RANK.et`, a stream of varint-length-prefixed protobuf messages, GlobalMetadata first and
/// then Nodes; optionally gzip-compressed; plus a comm-group JSON mapping group ids to global ranks.
/// See docs/chakra-format.md for how our model maps onto the schema.

/// The files that make up one trace on disk.
struct ChakraTraceFiles {
    std::string prefix;                 ///< PREFIX of PREFIX.RANK.et; the file itself for a single file
    std::vector<std::string> rankFiles; ///< index = rank
    std::string commGroupsFile;         ///< empty when there is none
};

/// Suffix of the comm-group JSON beside the rank files: PREFIX + this (PREFIX.json, as Chakra
/// generators such as symbolic_tensor_graph name it).
inline constexpr std::string_view kCommGroupsSuffix = ".json";

/// Resolves `path` to rank files: a single `.et` file (one rank), a directory holding the files of
/// one prefix, or a prefix. Ranks must run 0..N-1 without gaps. Throws InputError.
ChakraTraceFiles locateChakraTrace(const std::string& path);

/// Parses one rank's trace held in memory (gzip is inflated first); `file` names it in errors.
/// Throws InputError with the byte offset of the offending message.
Program parseChakraTrace(std::string_view bytes, const std::string& file);

/// Reads a comm-group JSON ({"1": [0, 1], ...}). Throws InputError.
std::vector<CommGroup> readCommGroups(const std::string& path);
/// The same from text already read; `file` names it in errors.
std::vector<CommGroup> parseCommGroups(std::string_view text, const std::string& file);

/// How the rank files of a trace came to share programs (readChakraWorkload).
struct ChakraSharing {
    std::size_t rankFiles = 0;
    std::size_t distinctPrograms = 0;
    /// Ranks that run an earlier rank's program: files byte-identical to an earlier one, and files
    /// that differ from an earlier one only in the names of their process groups (pg_name; the
    /// rank binds the shared program's slots to its own groups).
    std::size_t identicalFiles = 0;
    std::size_t sameExceptGroupNames = 0;
    /// Ranks whose ops equal an earlier rank's but for recorded start times and durations (and maybe
    /// group names): they share its program with their own times (RankBinding::times), and are
    /// simulated with them.
    std::size_t sameExceptTiming = 0;
};

/// Reads a whole trace (see locateChakraTrace) into a Workload. Ranks whose files hold the same ops
/// share one Program (see ChakraSharing), so that identical ranks cost memory once and the estimator
/// finds them symmetric. `commGroupsPath` overrides the comm-group JSON found beside the trace.
Workload readChakraWorkload(const std::string& path, const std::string& commGroupsPath = {},
                            const JobControl& control = {}, ChakraSharing* sharing = nullptr);

/// Serializes what `rank` runs: its program with pg_name bound to its groups, collective-permutes
/// expanded to matched send/recv nodes.
std::string serializeChakraRank(const Workload& workload, std::size_t rank);

/// Writes PREFIX.RANK.et for every rank, and PREFIX.json when any collective names a
/// group. All files appear together or none does. Returns the paths written. Throws OutputError.
std::vector<std::string> writeChakraWorkload(const Workload& workload, const std::string& prefix,
                                             const JobControl& control = {});

/// The same files staged in `output`, which the caller commits with its other files.
std::vector<std::string> writeChakraWorkload(const Workload& workload, const std::string& prefix,
                                             OutputTransaction& output, const JobControl& control = {});

/// The comm-group JSON text for the groups that `workload`'s ranks are bound to.
std::string commGroupsJson(const Workload& workload);

} // namespace flint::core
