// SPDX-License-Identifier: MIT
#pragma once

#include "core/hlo/hloimport.h"
#include "core/measured/measuredworkload.h"
#include "core/message.h"
#include "core/progress.h"
#include "core/workload.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flint::core {

/// What a workload was read from.
enum class InputKind {
    ChakraTrace,     ///< .et rank files (a file, a prefix or a directory)
    HloModule,       ///< XLA HLO text
    MlirModule,      ///< MLIR text: StableHLO, MHLO, Shardy or upstream dialects (needs flint_mlir)
    BuiltinModel,    ///< a built-in model compiled for a parallel strategy (engine/modelcompiler.h)
    MeasuredProfile, ///< PyTorch profiler (Kineto) JSON: a file, or a folder of one file per rank
};

/// Options for every input kind; each reader uses its own.
struct LoadOptions {
    std::string commGroupsPath; ///< Chakra: comm-group JSON (default: PREFIX.json beside the trace)
    hlo::HloImportOptions hlo;  ///< HLO and MLIR: device counts and while trip counts
    /// HLO and MLIR: the mesh ("x=2,y=4") to partition a module for that carries shardings but no
    /// collectives; empty: the module's own mesh (MLIR's sdy.mesh; for HLO, its Shardy mesh or one
    /// over its device count that refines its tilings, axes d0, d1, ...).
    std::string mesh;
    /// Measured profiles: the ProfilerStep#N to cut (-1: the first step every rank completed).
    std::int64_t profilerStep = -1;
};

/// A device mesh an MLIR module declares (Shardy `sdy.mesh`): axis names and sizes, in order.
struct MeshDeclaration {
    std::string name;
    std::vector<std::pair<std::string, std::int64_t>> axes;
};

/// A workload and what the user should know about how it was derived.
struct LoadedWorkload {
    InputKind kind = InputKind::ChakraTrace;
    Workload workload;
    std::string name;
    std::vector<Message> warnings;
    /// What the user should know that is not a problem (the mesh a module was partitioned for).
    std::vector<Message> notes;
    /// HLO and MLIR modules: the device space (global device id = replica * partitions + partition).
    std::int64_t replicaCount = 1;
    std::int64_t numPartitions = 1;
    /// MLIR modules: the meshes they declare.
    std::vector<MeshDeclaration> meshes;
    /// HLO and MLIR modules: who partitioned the module (Failed: it needed partitioning and could not
    /// be; the warnings say why).
    hlo::Partitioning partitioning = hlo::Partitioning::None;
    /// Measured profiles: each rank's step as measured (stepSeconds, counts), indexed by rank.
    std::vector<measured::MeasuredRank> measuredRanks;
    std::int64_t profilerStep = -1; ///< the ProfilerStep#N cut, -1 when none
    /// Measured profiles: the devices' kind ("TPU", "GPU") and the GPU's name as the profile records
    /// them (MeasuredWorkload::deviceKind, deviceName); empty when not recorded.
    std::string measuredDeviceKind;
    std::string measuredDeviceName;
};

/// True when `text`, the start of a file, reads like MLIR: after blank lines and `//` comments it
/// starts with `module`, `func.func`, an attribute or type alias (`#`, `!`), or a quoted generic op.
bool looksLikeMlir(std::string_view text);

/// The kind of input at `path`: a regular file whose text starts with `HloModule` is HLO, one named
/// `*.mlir` or whose text looks like MLIR is MLIR, a Chrome-trace JSON file (or gzip of one) with
/// "traceEvents", or a folder of them, is a measured profile; anything else is taken for a Chakra
/// trace (a file, prefix or directory).
InputKind detectInputKind(const std::string& path);

/// True when `path` is a regular file that reads like a model file (core::model::looksLikeModelFile).
bool isModelFile(const std::string& path);

/// Reads a measured run: a profile (PyTorch profiler, XLA; see core/measured) or a Chakra trace with
/// recorded times (duration_micros: a communication replay, a converted profile). Throws InputError
/// for anything else ("not a measured run"), Cancelled.
measured::MeasuredWorkload loadMeasuredRun(const std::string& path, const LoadOptions& options = {},
                                           const JobControl& control = {});

/// Reads any supported input into a Workload. A model file is refused with a message that says how
/// to use it. Throws InputError (MLIR: with file, line and column;
/// also when the program was built without the MLIR frontend), Cancelled.
LoadedWorkload loadWorkload(const std::string& path, const LoadOptions& options = {}, const JobControl& control = {});

} // namespace flint::core
