// SPDX-License-Identifier: MIT
#pragma once

// Internal to flint_mlir (includes MLIR): one place that sets up a context, parses, verifies and
// reports diagnostics, shared by the summary reader and the lowering.

#include "core/mlir/mlirreader.h"

#include <memory>
#include <string>
#include <string_view>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <mlir/IR/BuiltinOps.h>

namespace flint::mlir::detail {

/// Parses and verifies `buffer` in a fresh context (upstream dialects, plus the reader dialects
/// when options.readerDialects) and calls `use` with the module while the context lives. Throws
/// MlirParseError with the first error's file, line and column. `use` may throw.
void parseModule(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options,
                 llvm::function_ref<void(::mlir::ModuleOp)> use);

/// The file at `path`; throws MlirParseError (line 0) when it cannot be read.
std::unique_ptr<llvm::MemoryBuffer> openFile(const std::string& path);
std::unique_ptr<llvm::MemoryBuffer> copySource(std::string_view source, const std::string& bufferName);

} // namespace flint::mlir::detail
