// SPDX-License-Identifier: MIT
#pragma once

// Internal to flint_mlir (includes MLIR): one place that sets up a context, parses, verifies and
// reports diagnostics, shared by the summary reader and the lowering.

#include "core/mlir/mlirreader.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <mlir/AsmParser/AsmParserState.h>
#include <mlir/IR/BuiltinOps.h>

namespace flint::frontend::detail {

/// Where each operation of a parsed module is written in its file. Explicit locations
/// (`loc("jit(f)/dot")`, or a Python file's line) replace an op's own file position in MLIR, so the
/// parser's record of what it read is the only place that still knows the line in the .mlir file.
class SourcePositions {
public:
    SourcePositions(const mlir::AsmParserState& state, const llvm::SourceMgr& sourceMgr)
        : m_state(state)
        , m_sourceMgr(sourceMgr)
    {}
    /// 1-based line and column of `op`'s name in the file; {0, 0} when not known.
    std::pair<int, int> of(mlir::Operation* op) const;

private:
    const mlir::AsmParserState& m_state;
    const llvm::SourceMgr& m_sourceMgr;
};

/// Parses and verifies `buffer` in a fresh context (upstream dialects, plus the reader dialects
/// when options.readerDialects) and calls `use` with the module and its ops' positions while the
/// context lives. Throws MlirParseError with the first error's file, line and column. `use` may throw.
void parseModule(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options,
                 llvm::function_ref<void(mlir::ModuleOp, const SourcePositions&)> use);

/// The file at `path`; throws MlirParseError (line 0) when it cannot be read.
std::unique_ptr<llvm::MemoryBuffer> openFile(const std::string& path);
std::unique_ptr<llvm::MemoryBuffer> copySource(std::string_view source, const std::string& bufferName);

} // namespace flint::frontend::detail
