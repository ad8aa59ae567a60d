// SPDX-License-Identifier: MIT
#include "core/mlir/mlirimport.h"

#include "core/mlir/hlotranslation.h"
#include "core/mlir/moduleparser.h"

#include <utility>

namespace flint::mlir {
namespace {

MlirModule readBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer)
{
    const std::string file = buffer->getBufferIdentifier().str();
    MlirModule result;
    detail::parseModule(std::move(buffer), MlirReadOptions{}, [&](::mlir::ModuleOp module) {
        detail::TranslatedModule translated = detail::translateToHlo(module, file);
        result.module = std::move(translated.module);
        result.warnings = std::move(translated.warnings);
        result.shardedValues = translated.shardedValues;
        result.collectives = translated.collectives;
        for (detail::MeshDeclaration& mesh : translated.meshes)
            result.meshes.push_back(MeshAxes{std::move(mesh.name), std::move(mesh.axes)});
    });
    return result;
}

MlirImport lower(MlirModule read, const MlirImportOptions& options, const core::JobControl& control)
{
    MlirImport result;
    result.imported = core::hlo::lowerHlo(read.module, options.hlo, control);
    result.meshes = std::move(read.meshes);
    std::vector<std::string> warnings = std::move(read.warnings);
    if (read.shardedValues > 0 && read.collectives == 0)
        warnings.push_back("the module carries " + std::to_string(read.shardedValues) +
                           " sharding annotations but no collectives (not SPMD-partitioned); lowered as one "
                           "device's view of the whole program");
    for (std::string& warning : result.imported.warnings)
        warnings.push_back(std::move(warning));
    result.imported.warnings = std::move(warnings);
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

MlirImport importMlirFile(const std::string& path, const MlirImportOptions& options, const core::JobControl& control)
{
    return lower(readMlirModule(path), options, control);
}

MlirImport importMlirSource(std::string_view source, const std::string& bufferName, const MlirImportOptions& options,
                            const core::JobControl& control)
{
    return lower(readMlirModuleSource(source, bufferName), options, control);
}

} // namespace flint::mlir
