// SPDX-License-Identifier: MIT
// libFuzzer harness: a model file (`key = value` lines), its strategy check, and for small models
// the whole compile (block generation, MLIR lowering, composition).
#include "core/mlir/mlirreader.h"
#include "core/model/modelconfig.h"
#include "engine/modelcompiler.h"
#include "fuzz/fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace flint;
    try {
        const core::model::TransformerConfig model = core::model::parseModelText(fuzz::text(data, size), "fuzz.txt");
        const core::model::ParallelConfig parallel;
        if (!core::model::validateStrategy(model, parallel).empty())
            return 0;
        if (model.layers <= 2 && model.hidden <= 1024 && model.vocab <= 65536) {
            core::model::ModelCompiler compiler;
            fuzz::estimateIfSmall(compiler.compile(model, parallel).workload);
        }
    } catch (const core::InputError&) {
    } catch (const frontend::MlirParseError&) {
    }
    return 0;
}
