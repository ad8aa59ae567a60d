// SPDX-License-Identifier: MIT
#include "core/workloadloader.h"

#include "core/chakra.h"
#include "core/hlo/hloparser.h"

#include <cstdio>
#include <filesystem>

namespace flint::core {

InputKind detectInputKind(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return InputKind::ChakraTrace;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return InputKind::ChakraTrace;
    char head[256];
    const std::size_t got = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    return hlo::looksLikeHlo(std::string_view(head, got)) ? InputKind::HloModule : InputKind::ChakraTrace;
}

LoadedWorkload loadWorkload(const std::string& path, const LoadOptions& options, const JobControl& control)
{
    LoadedWorkload loaded;
    loaded.kind = detectInputKind(path);
    if (loaded.kind == InputKind::HloModule) {
        hlo::HloImport imported = hlo::importHloFile(path, options.hlo, control);
        loaded.workload = std::move(imported.workload);
        loaded.name = std::move(imported.moduleName);
        loaded.warnings = std::move(imported.warnings);
        loaded.replicaCount = imported.replicaCount;
        loaded.numPartitions = imported.numPartitions;
        return loaded;
    }
    loaded.workload = readChakraWorkload(path, options.commGroupsPath, control);
    loaded.name = std::filesystem::path(path).filename().string();
    return loaded;
}

} // namespace flint::core
