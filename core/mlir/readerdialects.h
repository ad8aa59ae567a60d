// SPDX-License-Identifier: MIT
#pragma once

// Reader dialects for the StableHLO, Shardy, MHLO and CHLO namespaces. MLIR 19 ships none of them,
// so flint_mlir registers dialects of its own that only *read*: every operation they parse becomes
// an unregistered operation of the dialect (generic form and pretty form alike), with its pretty
// syntax turned into attributes that the lowering reads (see docs/mlir-frontend.md, "Reader
// dialects", for the attribute names). Internal to flint_mlir: this header includes MLIR.

#include <mlir/IR/Dialect.h>
#include <mlir/IR/DialectRegistry.h>

namespace flint::frontend::detail {

/// A namespace whose operations are read, not verified: unknown operations and types are allowed,
/// pretty-form operations get a parser from getParseOperationHook, and the namespace's attributes
/// and types are kept as builtin opaque attributes and types (`#stablehlo.dot<...>` keeps its text),
/// except Shardy's shardings and meshes, which are parsed into dictionaries (see parseSdyAttribute).
class ReaderDialect : public mlir::Dialect {
public:
    ReaderDialect(::llvm::StringRef dialectNamespace, mlir::MLIRContext* owner, mlir::TypeID id);

    mlir::Attribute parseAttribute(mlir::DialectAsmParser& parser, mlir::Type type) const override;
    mlir::Type parseType(mlir::DialectAsmParser& parser) const override;
    std::optional<ParseOpHook> getParseOperationHook(::llvm::StringRef opName) const override;
};

class StableHloReaderDialect : public ReaderDialect {
public:
    static constexpr ::llvm::StringLiteral getDialectNamespace() { return "stablehlo"; }
    explicit StableHloReaderDialect(mlir::MLIRContext* owner);
};

class MhloReaderDialect : public ReaderDialect {
public:
    static constexpr ::llvm::StringLiteral getDialectNamespace() { return "mhlo"; }
    explicit MhloReaderDialect(mlir::MLIRContext* owner);
};

class ChloReaderDialect : public ReaderDialect {
public:
    static constexpr ::llvm::StringLiteral getDialectNamespace() { return "chlo"; }
    explicit ChloReaderDialect(mlir::MLIRContext* owner);
};

class ShardyReaderDialect : public ReaderDialect {
public:
    static constexpr ::llvm::StringLiteral getDialectNamespace() { return "sdy"; }
    explicit ShardyReaderDialect(mlir::MLIRContext* owner);
};

/// Adds the four reader dialects to `registry`.
void registerReaderDialects(mlir::DialectRegistry& registry);

} // namespace flint::frontend::detail

MLIR_DECLARE_EXPLICIT_TYPE_ID(flint::frontend::detail::StableHloReaderDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(flint::frontend::detail::MhloReaderDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(flint::frontend::detail::ChloReaderDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(flint::frontend::detail::ShardyReaderDialect)
