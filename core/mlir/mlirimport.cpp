// SPDX-License-Identifier: MIT
#include "core/mlir/mlirimport.h"

#include "core/mlir/hlotranslation.h"
#include "core/mlir/moduleparser.h"
#include "core/partition/partitioner.h"

#include <stdexcept>
#include <utility>

namespace flint::frontend {
namespace {

MlirModule readBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer)
{
    const std::string file = buffer->getBufferIdentifier().str();
    MlirModule result;
    detail::parseModule(std::move(buffer), MlirReadOptions{},
                        [&](mlir::ModuleOp module, const detail::SourcePositions& positions) {
                            detail::TranslatedModule translated = detail::translateToHlo(module, file, positions);
                            result.module = std::move(translated.module);
                            result.warnings = std::move(translated.warnings);
                            result.shardedValues = translated.shardedValues;
                            result.collectives = translated.collectives;
                            result.manualComputations = translated.manualComputations;
                            for (detail::MeshDeclaration& mesh : translated.meshes)
                                result.meshes.push_back(
                                    MeshAxes{std::move(mesh.name), std::move(mesh.axes), std::move(mesh.deviceIds)});
                        });
    return result;
}

} // namespace

MlirModule readMlirModule(const std::string& path)
{
    return readBuffer(detail::openFile(path));
}

MlirModule readMlirModuleSource(std::string_view source, const std::string& bufferName)
{
    return readBuffer(detail::copySource(source, bufferName));
}

MlirImport lowerMlirModule(const MlirModule& read, const MlirImportOptions& options, const core::JobControl& control)
{
    MlirImport result;
    result.meshes = read.meshes;
    std::vector<core::Message> warnings = read.warnings;
    const bool needsPartitioning = read.manualComputations > 0 || (read.shardedValues > 0 && read.collectives == 0);
    core::partition::MeshShape mesh;
    try {
        if (!options.mesh.empty())
            mesh = core::partition::MeshShape::parse(options.mesh);
    } catch (const std::invalid_argument& e) {
        throw core::InputError(read.module.file, std::string("--mesh: ") + e.what());
    }
    if (mesh.axes.empty() && !read.meshes.empty()) {
        mesh.axes = read.meshes.front().axes;
        mesh.deviceIds = read.meshes.front().deviceIds;
    }
    if (!needsPartitioning && !options.mesh.empty())
        warnings.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                   "the module is already partitioned (it has %1 collectives or no "
                                                   "shardings); the mesh %2 is not used"),
                              std::vector<std::string>{std::to_string(read.collectives), options.mesh});
    if (needsPartitioning && !mesh.axes.empty()) {
        core::partition::PartitionedModule partitioned;
        try {
            partitioned = core::partition::partitionForMesh(core::partition::logicalProgramOf(read.module), mesh,
                                                            read.module.file);
        } catch (const std::invalid_argument& e) {
            throw core::InputError(read.module.file,
                                   std::string("partitioning for mesh ") + mesh.toString() + ": " + e.what());
        }
        result.imported = core::hlo::lowerHlo(partitioned.module, options.hlo, control);
        result.imported.partitioning = core::hlo::Partitioning::ByFlint;
        result.partitionedFor = mesh.toString();
        result.insertedCollectives = partitioned.collectivesInserted;
        warnings.insert(warnings.end(), partitioned.warnings.begin(), partitioned.warnings.end());
    } else {
        if (needsPartitioning)
            warnings.emplace_back(FLINT_TRANSLATE_NOOP("Diagnostics",
                                                       "the module carries %1 sharding annotations but no collectives "
                                                       "and declares no mesh; lowered as one device's view of the "
                                                       "whole program (give --mesh to partition it)"),
                                  std::vector<std::string>{std::to_string(read.shardedValues)});
        result.imported = core::hlo::lowerHlo(read.module, options.hlo, control);
        result.imported.partitioning =
            needsPartitioning ? core::hlo::Partitioning::Failed
            : (read.collectives > 0 || result.imported.replicaCount * result.imported.numPartitions > 1)
                ? core::hlo::Partitioning::ByCompiler
                : core::hlo::Partitioning::None;
    }
    for (core::Message& warning : result.imported.warnings)
        warnings.push_back(std::move(warning));
    result.imported.warnings = std::move(warnings);
    return result;
}

MlirImport importMlirFile(const std::string& path, const MlirImportOptions& options, const core::JobControl& control)
{
    return lowerMlirModule(readMlirModule(path), options, control);
}

MlirImport importMlirSource(std::string_view source, const std::string& bufferName, const MlirImportOptions& options,
                            const core::JobControl& control)
{
    return lowerMlirModule(readMlirModuleSource(source, bufferName), options, control);
}

} // namespace flint::frontend
