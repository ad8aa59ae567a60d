// SPDX-License-Identifier: MIT
// libFuzzer harness: an MLIR module (StableHLO, MHLO, Shardy, upstream mesh), read with the reader
// dialects, translated, partitioned, lowered and estimated when small.
#include "core/mlir/mlirimport.h"
#include "core/mlir/mlirreader.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    try {
        frontend::MlirImportOptions options;
        options.hlo.maxOps = 100'000;
        const frontend::MlirImport imported = frontend::importMlirSource(fuzz::text(data, size), "fuzz.mlir", options);
        fuzz::estimateIfSmall(imported.imported.workload);
    } catch (const core::InputError&) {
    } catch (const frontend::MlirParseError&) {
    }
    return 0;
}
