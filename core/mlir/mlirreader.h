// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Facade of the MLIR frontend. This header exposes only our own types; MLIR and LLVM headers stay
// inside flint_mlir's sources, so that nothing else in the project compiles against them.
namespace flint::frontend {

/// How often one operation name occurs in a module.
struct OperationCount {
    std::string name;        ///< full operation name, "dialect.op": "func.func", "arith.addf", "mesh.shard"
    std::uint64_t count = 0; ///< number of occurrences, nested regions included

    friend bool operator==(const OperationCount&, const OperationCount&) = default;
};

/// What a parsed and verified MLIR module contains.
struct MlirSummary {
    /// One entry per distinct operation name, sorted by name (byte order). Counts every operation
    /// reached by a walk of the module, the top-level `builtin.module` and the bodies of nested
    /// regions included (for example the implicit `arith.mulf`/`arith.addf`/`linalg.yield` body of
    /// `linalg.matmul`).
    std::vector<OperationCount> operations;
    /// Sum of all counts in `operations`.
    std::uint64_t totalOperations = 0;
    /// Distinct dialect namespaces of the counted operations ("arith", "builtin", "func", ...),
    /// sorted; includes unregistered dialects when they were allowed.
    std::vector<std::string> dialects;

    friend bool operator==(const MlirSummary&, const MlirSummary&) = default;
};

/// Where and why MLIR input was rejected.
struct MlirError {
    std::string file;    ///< file path or buffer name the error points into
    int line = 0;        ///< 1-based line; 0 when the error has no source position (e.g. unreadable file)
    int column = 0;      ///< 1-based column; 0 when the error has no source position
    std::string message; ///< MLIR's message of the first error, without location prefix

    friend bool operator==(const MlirError&, const MlirError&) = default;
};

/// Thrown for MLIR input that cannot be read, parsed or verified. `what()` reads
/// "file:line:column: message"; `diagnostics()` holds every diagnostic MLIR emitted (errors, notes,
/// source lines with carets), as MLIR's tools print them.
class MlirParseError : public std::runtime_error {
public:
    MlirParseError(MlirError error, std::string diagnostics);

    /// The first error, with its source position.
    [[nodiscard]] const MlirError& error() const noexcept { return m_error; }
    /// All diagnostics as text, one per line, each with its location; may be empty for I/O errors.
    [[nodiscard]] const std::string& diagnostics() const noexcept { return m_diagnostics; }

private:
    MlirError m_error;
    std::string m_diagnostics;
};

/// Options of the MLIR reader.
struct MlirReadOptions {
    /// Accept operations, attributes and types of dialects that are not registered as opaque generic
    /// operations, like `mlir-opt --allow-unregistered-dialect`. Only the generic form
    /// `"tf.Add"(%a, %b) : ...` parses this way; a dialect's pretty form still fails because its
    /// parser is missing.
    bool allowUnregistered = false;
    /// Register flint_mlir's reader dialects for the stablehlo, mhlo, chlo and sdy namespaces, which
    /// parse the pretty and generic forms of their operations (see docs/mlir-frontend.md). Off: only
    /// MLIR's upstream dialects are registered.
    bool readerDialects = true;
};

/// Parses the MLIR file at `path` (text form) in a fresh context with MLIR's upstream dialects,
/// dialect extensions and (by default) the reader dialects registered, verifies it, and counts its operations by name.
/// Thread-safe: each call owns its MLIR context; calls may run concurrently on different threads.
/// Throws MlirParseError for an unreadable file or invalid input; never aborts on bad input.
[[nodiscard]] MlirSummary summarizeMlirFile(const std::string& path, const MlirReadOptions& options = {});

/// Same as summarizeMlirFile for MLIR text held in memory. `bufferName` is the file name that
/// error locations report. `source` is copied; the caller keeps ownership.
[[nodiscard]] MlirSummary summarizeMlirSource(std::string_view source, const std::string& bufferName,
                                              const MlirReadOptions& options = {});

} // namespace flint::frontend
