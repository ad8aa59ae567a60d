// SPDX-License-Identifier: MIT
#include "core/mlir/mlirreader.h"

#include "core/fileio.h"
#include "core/mlir/moduleparser.h"
#include "core/mlir/readerdialects.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/ErrorOr.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/AsmParser/AsmParser.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/InitAllDialects.h>
#include <mlir/InitAllExtensions.h>
#include <mlir/Parser/Parser.h>

namespace flint::mlir {

namespace {

std::string formatWhat(const MlirError& error)
{
    std::string what = error.file;
    if (error.line > 0) {
        what += ':' + std::to_string(error.line) + ':' + std::to_string(error.column);
    }
    what += ": " + error.message;
    return what;
}

// MLIR reports a generic-form operation of an unregistered dialect as "operation being parsed with
// an unregistered dialect. If this is intended, please use -allow-unregistered-dialect ...", which
// names neither the operation nor the dialect and points at the token after the quoted operation
// name. Recover the name from the source line so that the message says which dialect is missing and
// the column points at the operation.
struct QuotedOperationName {
    std::string name;
    int column = 0; // 1-based column of the opening quote
};

std::optional<QuotedOperationName> unregisteredOperationName(std::string_view source, int line, int column)
{
    if (line <= 0 || column <= 1) {
        return std::nullopt;
    }
    std::size_t lineStart = 0;
    for (int current = 1; current < line; ++current) {
        lineStart = source.find('\n', lineStart);
        if (lineStart == std::string_view::npos) {
            return std::nullopt;
        }
        ++lineStart;
    }
    const std::size_t lineEnd = std::min(source.find('\n', lineStart), source.size());
    const std::string_view lineText = source.substr(lineStart, lineEnd - lineStart);
    std::size_t end = std::min(static_cast<std::size_t>(column - 1), lineText.size());
    while (end > 0 && (lineText[end - 1] == ' ' || lineText[end - 1] == '\t')) {
        --end;
    }
    if (end < 2 || lineText[end - 1] != '"') {
        return std::nullopt;
    }
    const std::size_t open = lineText.rfind('"', end - 2);
    if (open == std::string_view::npos) {
        return std::nullopt;
    }
    return QuotedOperationName{std::string(lineText.substr(open + 1, end - 2 - open)), static_cast<int>(open) + 1};
}

// Records the first error MLIR emits. Installed after the SourceMgrDiagnosticHandler, so it runs
// first; it returns failure so that the diagnostic also reaches the SourceMgr handler, which renders
// it to text. It must not throw: it is called from inside MLIR, which is built without exceptions.
class FirstErrorRecorder {
public:
    explicit FirstErrorRecorder(::mlir::MLIRContext* context)
        : m_handler(context, [this](::mlir::Diagnostic& diagnostic) { return record(diagnostic); })
    {}

    [[nodiscard]] const std::optional<MlirError>& firstError() const { return m_firstError; }

private:
    ::mlir::LogicalResult record(::mlir::Diagnostic& diagnostic)
    {
        if (diagnostic.getSeverity() == ::mlir::DiagnosticSeverity::Error && !m_firstError) {
            MlirError error;
            if (auto position = diagnostic.getLocation()->findInstanceOf<::mlir::FileLineColLoc>()) {
                error.file = position.getFilename().str();
                error.line = static_cast<int>(position.getLine());
                error.column = static_cast<int>(position.getColumn());
            }
            error.message = diagnostic.str();
            // Some MLIR messages end in a space ("... for custom op 'sdy.mesh' ").
            while (!error.message.empty() && error.message.back() == ' ') {
                error.message.pop_back();
            }
            m_firstError = std::move(error);
        }
        return ::mlir::failure();
    }

    ::mlir::ScopedDiagnosticHandler m_handler;
    std::optional<MlirError> m_firstError;
};

MlirSummary countOperations(::mlir::Operation* root)
{
    std::map<std::string, std::uint64_t, std::less<>> counts;
    std::set<std::string, std::less<>> dialects;
    MlirSummary summary;
    root->walk([&](::mlir::Operation* operation) {
        const ::mlir::OperationName name = operation->getName();
        const llvm::StringRef fullName = name.getStringRef();
        auto found = counts.find(std::string_view(fullName.data(), fullName.size()));
        if (found == counts.end()) {
            found = counts.emplace(fullName.str(), 0).first;
        }
        ++found->second;
        const llvm::StringRef dialect = name.getDialectNamespace();
        if (dialects.find(std::string_view(dialect.data(), dialect.size())) == dialects.end()) {
            dialects.insert(dialect.str());
        }
        ++summary.totalOperations;
    });
    summary.operations.reserve(counts.size());
    for (auto& [name, count] : counts) {
        summary.operations.push_back(OperationCount{name, count});
    }
    summary.dialects.assign(dialects.begin(), dialects.end());
    return summary;
}

} // namespace

namespace detail {

/// MLIR's parser recurses into nested attributes and types: a module nesting deeper than
/// core::kMaxNesting brackets is refused first, with its line and column.
void refuseDeepNesting(std::string_view source, const std::string& bufferName)
{
    const auto at = core::excessiveNesting(source, core::kMaxNesting, true);
    if (!at)
        return;
    const std::string_view before = source.substr(0, *at);
    const auto lineStart = before.rfind('\n');
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const int column = static_cast<int>(*at - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    throw MlirParseError(MlirError{bufferName, line, column,
                                   "brackets nest deeper than " + std::to_string(core::kMaxNesting) +
                                       " levels here; refused before parsing (no real input nests so deep)"},
                         {});
}

std::pair<int, int> SourcePositions::of(::mlir::Operation* op) const
{
    const ::mlir::AsmParserState::OperationDefinition* definition = m_state.getOpDef(op);
    if (definition == nullptr || !definition->loc.Start.isValid())
        return {0, 0};
    const auto [line, column] = m_sourceMgr.getLineAndColumn(definition->loc.Start);
    return {static_cast<int>(line), static_cast<int>(column)};
}

void parseModule(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options,
                 llvm::function_ref<void(::mlir::ModuleOp, const SourcePositions&)> use)
{
    const std::string bufferName = buffer->getBufferIdentifier().str();
    const llvm::StringRef text = buffer->getBuffer();
    const std::string_view source(text.data(), text.size());
    refuseDeepNesting(source, bufferName);

    ::mlir::DialectRegistry registry;
    ::mlir::registerAllDialects(registry);
    ::mlir::registerAllExtensions(registry);
    if (options.readerDialects) {
        registerReaderDialects(registry);
    }
    // No thread pool per call: callers already run readers on their own worker threads, and a
    // context with threading enabled would start one thread per core for every file read.
    ::mlir::MLIRContext context(registry, ::mlir::MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(options.allowUnregistered);

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());

    std::string diagnostics;
    llvm::raw_string_ostream diagnosticStream(diagnostics);
    std::optional<MlirError> firstError;
    ::mlir::OwningOpRef<::mlir::ModuleOp> module;
    ::mlir::AsmParserState parserState;
    {
        ::mlir::SourceMgrDiagnosticHandler renderer(sourceMgr, &context, diagnosticStream);
        FirstErrorRecorder recorder(&context);
        // parseSourceFile<ModuleOp> without the parser state: parse into a block, keep the state of
        // every op's position, then wrap the block's ops in a module as parseSourceFile does.
        ::mlir::Block block;
        const ::mlir::ParserConfig config(&context);
        const ::mlir::Location fileLocation = ::mlir::FileLineColLoc::get(&context, bufferName, 0, 0);
        if (::mlir::succeeded(::mlir::parseAsmSourceFile(sourceMgr, &block, config, &parserState)))
            module = ::mlir::detail::constructContainerOpForParserIfNecessary<::mlir::ModuleOp>(&block, &context,
                                                                                                fileLocation);
        firstError = recorder.firstError();
    }
    diagnosticStream.flush();

    if (module && !firstError) {
        use(*module, SourcePositions(parserState, sourceMgr));
        return;
    }

    MlirError error = firstError.value_or(MlirError{bufferName, 0, 0, "invalid MLIR input"});
    if (error.file.empty()) {
        error.file = bufferName;
    }
    if (llvm::StringRef(error.message).starts_with("operation being parsed with an unregistered dialect")) {
        if (const auto operation = unregisteredOperationName(source, error.line, error.column)) {
            const std::string dialect = operation->name.substr(0, operation->name.find('.'));
            error.column = operation->column;
            error.message = "operation '" + operation->name + "' belongs to dialect '" + dialect +
                            "', which is not registered (upstream MLIR dialects and the stablehlo, mhlo, chlo "
                            "and sdy reader dialects are; generic-form operations of other dialects need "
                            "allowUnregistered)";
        }
    }
    throw MlirParseError(std::move(error), std::move(diagnostics));
}

std::unique_ptr<llvm::MemoryBuffer> openFile(const std::string& path)
{
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) {
        throw MlirParseError(MlirError{path, 0, 0, "cannot read file: " + buffer.getError().message()}, {});
    }
    return std::move(*buffer);
}

std::unique_ptr<llvm::MemoryBuffer> copySource(std::string_view source, const std::string& bufferName)
{
    return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), bufferName);
}

} // namespace detail

namespace {

MlirSummary summarizeBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, const MlirReadOptions& options)
{
    MlirSummary summary;
    detail::parseModule(std::move(buffer), options,
                        [&summary](::mlir::ModuleOp module, const detail::SourcePositions&) {
                            summary = countOperations(module.getOperation());
                        });
    return summary;
}

} // namespace

MlirParseError::MlirParseError(MlirError error, std::string diagnostics)
    : std::runtime_error(formatWhat(error))
    , m_error(std::move(error))
    , m_diagnostics(std::move(diagnostics))
{}

MlirSummary summarizeMlirFile(const std::string& path, const MlirReadOptions& options)
{
    return summarizeBuffer(detail::openFile(path), options);
}

MlirSummary summarizeMlirSource(std::string_view source, const std::string& bufferName, const MlirReadOptions& options)
{
    return summarizeBuffer(detail::copySource(source, bufferName), options);
}

} // namespace flint::mlir
